/**
 * The reference server's own page, at `/`: what it stored, for a person at a browser.
 * Rendered on the server into static HTML, with no script at all: every value is user
 * data (inputs, outputs, tags, model names) and is escaped where it is written, and the
 * page is sent with a Content-Security-Policy that runs no script even if one slipped in.
 * No API key appears: projects are named, keys are not.
 */
import type { TraceStep } from '../schemas/index.js';
import type { StoredConversation, StoredFeedback, StoredInteraction } from './stored.js';

/** The path of the page. */
export const PAGE_PATH = '/';

/** The page's headers: HTML, never cached, no script, no framing, no sniffing. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe for HTML content and quoted attribute values.
 * @example
 * ```ts
 * escapeHtml('<img src=x onerror=alert(1)>'); // '&lt;img src=x onerror=alert(1)&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** Any value as escaped text: strings as they are, anything else as JSON. */
function text(value: unknown): string {
  return escapeHtml(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
}

/** The stored data the page shows: each project's conversations. */
export interface PageData {
  readonly projects: ReadonlyArray<{ readonly name: string; readonly conversations: readonly StoredConversation[] }>;
}

/** When the conversation was last written to: its newest interaction or feedback. */
function lastReceived(conversation: StoredConversation): string {
  const times = [...conversation.interactions, ...conversation.feedback].map((item) => item.received_at);
  return times.reduce((latest, time) => (time > latest ? time : latest), '');
}

function tagList(tags: Readonly<Record<string, string>>): string {
  const entries = Object.entries(tags);
  if (entries.length === 0) return '<span class="none">none</span>';
  return entries.map(([name, value]) => `<span class="tag">${text(name)}=${text(value)}</span>`).join(' ');
}

function tokens(step: TraceStep): string {
  const parts: string[] = [];
  if ('input_tokens' in step && step.input_tokens !== undefined) parts.push(`${text(step.input_tokens)} in`);
  if ('output_tokens' in step && step.output_tokens !== undefined) parts.push(`${text(step.output_tokens)} out`);
  return parts.length === 0 ? '' : ` <span class="tokens">${parts.join(', ')} tokens</span>`;
}

function stepItem(step: TraceStep): string {
  if ('source' in step) {
    const outputs = step.outputs.map((output) => `<li>${text(output)}</li>`).join('');
    return `<li class="step retrieval"><b>retrieval</b> source <code>${text(step.source)}</code>: ${text(step.input)}<ol>${outputs}</ol></li>`;
  }
  if ('messages' in step) {
    return `<li class="step llm"><b>llm</b> model <code>${text(step.model)}</code>${tokens(step)}: ${text(step.output)}</li>`;
  }
  return `<li class="step embedding"><b>embedding</b> model <code>${text(step.model)}</code>${tokens(step)}: ${text(step.input)}</li>`;
}

function feedbackItem(action: { slug: string; text?: string | undefined; value?: number | undefined }, late: boolean): string {
  const details = [action.text === undefined ? '' : ` “${text(action.text)}”`, action.value === undefined ? '' : ` (${text(action.value)})`].join('');
  return `<li class="feedback"><code>${text(action.slug)}</code>${details}${late ? ' <span class="none">sent later</span>' : ''}</li>`;
}

function interactionBlock(interaction: StoredInteraction, late: readonly StoredFeedback[]): string {
  const steps = interaction.trace.map(stepItem).join('');
  const feedback = [
    ...interaction.feedback_actions.map((action) => feedbackItem(action, false)),
    ...late.filter((item) => item.interaction_id === interaction.id).map((item) => feedbackItem(item.action, true)),
  ].join('');
  return `<article class="interaction" data-id="${text(interaction.id)}">
<dl>
<dt>input</dt><dd class="input">${text(interaction.input)}</dd>
<dt>output</dt><dd class="output">${text(interaction.output)}</dd>
<dt>end user</dt><dd class="end-user"><code>${text(interaction.end_user)}</code></dd>
<dt>tags</dt><dd class="tags">${tagList(interaction.tags)}</dd>
<dt>time</dt><dd>${text(interaction.time_start)} → ${text(interaction.time_end)}</dd>
</dl>
<h4>trace</h4>${steps === '' ? '<p class="none">no steps</p>' : `<ol class="trace">${steps}</ol>`}
<h4>feedback</h4>${feedback === '' ? '<p class="none">none</p>' : `<ul class="feedback-list">${feedback}</ul>`}
</article>`;
}

function conversationBlock(project: string, conversation: StoredConversation): string {
  const [first] = conversation.interactions;
  const bulk = first?.source === 'conversation';
  const kind = bulk
    ? 'a conversation (bulk endpoint, which carries no id: the id is the server’s)'
    : `single interactions (the <code>conversation_id</code> the app sent)`;
  const interactions = conversation.interactions.map((interaction) => interactionBlock(interaction, conversation.feedback)).join('\n');
  return `<section class="conversation" data-conversation-id="${text(conversation.conversation_id)}">
<h3><code>${text(conversation.conversation_id)}</code> <span class="kind">${kind}</span></h3>
<p class="meta">project <code>${text(project)}</code> · end user <code>${text(conversation.end_user)}</code> · ${conversation.interactions.length} interaction(s) · last received ${text(lastReceived(conversation))}</p>
${interactions}
</section>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}h3{margin:.2rem 0}h4{margin:.6rem 0 .2rem;font-size:.85rem;color:#555}
.conversation{border:1px solid #ccc;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
.interaction{border-top:1px solid #eee;padding:.6rem 0}
dl{display:grid;grid-template-columns:6rem 1fr;gap:.2rem .8rem;margin:0}dt{color:#555}dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.kind,.meta,.none{color:#666;font-size:.85rem}.tag{background:#eef;border-radius:3px;padding:0 .3rem}
.tokens{color:#555}code{overflow-wrap:anywhere}`;

/**
 * The page: every project's conversations and single interactions, newest first (by the
 * last thing received), each interaction with its input, output, end user, tags, trace
 * steps (model, tokens, source) and feedback, inline or sent later.
 *
 * @example
 * ```ts
 * const html = renderPage({ projects: [{ name: 'dev-project', conversations: store.listConversations('dev-project') }] });
 * ```
 */
export function renderPage(data: PageData): string {
  const all = data.projects.flatMap(({ name, conversations }) => conversations.map((conversation) => ({ name, conversation })));
  all.sort((a, b) => (lastReceived(b.conversation) > lastReceived(a.conversation) ? 1 : lastReceived(b.conversation) < lastReceived(a.conversation) ? -1 : 0));
  const interactions = all.reduce((count, { conversation }) => count + conversation.interactions.length, 0);
  const body =
    all.length === 0
      ? '<p class="none">Nothing stored yet. Send something (the quick start, <code>npx nebuly users sync</code>, your app with <code>NEBULY_BASE_URL</code> set to this server), then reload.</p>'
      : all.map(({ name, conversation }) => conversationBlock(name, conversation)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nebuly reference server: what it stored</title>
<style>${STYLE}</style>
</head>
<body>
<h1>What the reference server stored</h1>
<p class="meta">${all.length} conversation(s), ${interactions} interaction(s), newest first; projects ${data.projects.map(({ name }) => `<code>${text(name)}</code>`).join(', ')}. Reload to see what came since. The same as JSON: <code>GET /_reference/conversations</code> with the project's key.</p>
${body}
</body>
</html>
`;
}
