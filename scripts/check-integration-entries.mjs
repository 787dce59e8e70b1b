// The integration entries check targets with `instanceof` (NebulyClient, Conversation,
// Turn). A build that gave an entry its own copy of those classes would reject every
// target made with the main entry; this loads the built files as users do, in both
// module formats, and fails if that happens. Run after `npm run build`. Nothing is sent:
// the process exits with the recorded conversation still open.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const formats = {
  esm: async (entry) => import(`../dist/${entry}.js`),
  cjs: async (entry) => require(`../dist/${entry}.cjs`),
};

let failed = false;
for (const [format, load] of Object.entries(formats)) {
  const { NebulyClient } = await load('index');
  const { nebulyMiddleware, nebulyTelemetry } = await load('ai-sdk');
  const { NebulyCallbackHandler } = await load('langchain');
  const nebuly = new NebulyClient({ apiKey: 'check-key', baseUrl: 'http://127.0.0.1:9' });
  const conversation = nebuly.startConversation({ end_user: 'check' });
  const turn = conversation.interaction({ input: 'check' });
  const checks = {
    'ai-sdk nebulyMiddleware({ nebuly, endUser })': () => nebulyMiddleware({ nebuly, endUser: 'check' }),
    'ai-sdk nebulyTelemetry({ conversation })': () => nebulyTelemetry({ conversation }),
    'langchain NebulyCallbackHandler({ turn })': () => new NebulyCallbackHandler({ turn }),
  };
  for (const [name, check] of Object.entries(checks)) {
    try {
      check();
      console.log(`${format}: ${name} ok`);
    } catch (error) {
      failed = true;
      console.error(`${format}: ${name} FAILED: ${error.message}`);
    }
  }
}
process.exit(failed ? 1 : 0);
