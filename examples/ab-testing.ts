// An A/B test of a prompt and a model: ask the user's variants once, use the prompt and
// model they name, and record the flags with each interaction, which ties it to the
// experiment in the platform.
//
//   echo '{"support-model": [{"kind": "model", "model_id": "gpt-4o-mini", "config_params": []}]}' > ab.json
//   npm run reference-server -- --port 8787 --api-key dev-key --experiments ab.json   (another terminal)
//   NEBULY_API_KEY=dev-key NEBULY_BASE_URL=http://127.0.0.1:8787 npx tsx examples/ab-testing.ts
import { hashEndUser, NebulyClient, type Variant } from 'nebuly-client';

const nebuly = new NebulyClient(); // NEBULY_API_KEY, NEBULY_REGION / NEBULY_BASE_URL
const FLAGS = ['support-prompt', 'support-model'];
const DEFAULTS = { prompt: 'You are a travel assistant.', model: 'gpt-4o' };

/** What a user's variants say to use, asked once per user and kept: variants are stable. */
const settingsOfUser = new Map<string, Promise<{ prompt: string; model: string }>>();

function settingsFor(endUser: string): Promise<{ prompt: string; model: string }> {
  let settings = settingsOfUser.get(endUser);
  if (settings === undefined) {
    settings = nebuly.variants({ user: endUser, feature_flags: FLAGS }).then(
      ({ variants }) => {
        const chosen = { ...DEFAULTS };
        for (const { feature_flag_name, variant } of variants) {
          console.log(`${endUser.slice(0, 8)}… is in ${feature_flag_name}: ${describe(variant)}`);
          if (variant.kind === 'prompt') chosen.prompt = variant.prompt;
          if (variant.kind === 'model') chosen.model = variant.model_id;
        }
        return chosen;
      },
      // The experiment must never stop the chat: without variants, the defaults.
      () => DEFAULTS,
    );
    settingsOfUser.set(endUser, settings);
  }
  return settings;
}

function describe(variant: Variant): string {
  const params = variant.config_params.map((param) => `${param.name}=${JSON.stringify(param.value)}`).join(', ');
  const named = variant.kind === 'prompt' ? JSON.stringify(variant.prompt) : variant.kind === 'model' ? variant.model_id : variant.rag_source;
  return `${variant.kind} ${named}${params === '' ? '' : ` (${params})`}`;
}

for (const user of ['alice@example.com', 'bob@example.com']) {
  const endUser = await hashEndUser(user);
  const { prompt, model } = await settingsFor(endUser);
  const conversation = nebuly.conversation({ conversation_id: `chat-${endUser.slice(0, 8)}`, end_user: endUser });
  const question = 'Can I change my flight to Friday?';
  const turn = conversation.interaction({ input: question, feature_flag: FLAGS });
  const answer = `(${model}) Yes: changes are free up to 24 hours before departure.`;
  turn.llm({ model, messages: [{ role: 'system', content: prompt }, { role: 'user', content: question }], output: answer });
  turn.end({ output: answer });
  await conversation.end();
  console.log(`recorded with ${model} and feature_flag ${JSON.stringify(FLAGS)}`);
}
await nebuly.shutdown();
