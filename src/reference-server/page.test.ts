import { describe, expect, it } from 'vitest';
import { escapeHtml, renderPage } from './page.js';
import { ReferenceStore } from './store.js';

const HOSTILE = `<script>alert(1)</script><img src=x onerror="alert(2)">'&"`;

/** A store holding one bulk conversation, then single interactions of the app's `chat-7`, then late feedback. */
function storeWithData(): ReferenceStore {
  let seconds = 0;
  const store = new ReferenceStore(() => new Date(Date.UTC(2026, 2, 1, 10, 0, seconds++)));
  store.addConversation('dev-project', {
    conversation: {
    end_user: 'hashed-user-1',
    interactions: [
      {
        input: `Where is my order? ${HOSTILE}`,
        output: 'It shipped.',
        time_start: '2026-03-01T09:00:00.000Z',
        time_end: '2026-03-01T09:00:01.000Z',
        tags: { plan: HOSTILE },
        trace: [
          { model: 'gpt-4o', messages: [{ role: 'user', content: 'Where?' }], output: 'It shipped.', input_tokens: 21, output_tokens: 5 },
          { source: 'orders-db', input: 'order 7', outputs: ['shipped'] },
        ],
        feedback_actions: [{ slug: 'thumbs_up' }],
      },
    ],
    },
  });
  store.addInteraction('dev-project', {
    interaction: {
      conversation_id: 'chat-7',
      input: 'Hi',
      output: 'Hello!',
      time_start: '2026-03-01T09:10:00.000Z',
      time_end: '2026-03-01T09:10:01.000Z',
      end_user: 'hashed-user-2',
    },
    traces: [{ model: 'claude-test', messages: [{ role: 'user', content: 'Hi' }], output: 'Hello!', input_tokens: 3 }],
    user_feedback: [{ slug: 'comment', text: 'nice' }],
  });
  return store;
}

const page = (store: ReferenceStore) => renderPage({ projects: [{ name: 'dev-project', conversations: store.listConversations('dev-project') }] });

describe('the reference server page', () => {
  it('escapes every value: user data never becomes markup', () => {
    const html = page(storeWithData());
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/onerror="/);
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(escapeHtml(HOSTILE)).toBe('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;&#39;&amp;&quot;');
  });

  it('shows each interaction: input, output, end user, tags, trace steps (model, tokens, source) and feedback', () => {
    const html = page(storeWithData());
    for (const expected of [
      'It shipped.',
      '<code>hashed-user-1</code>',
      '<code>gpt-4o</code> <span class="tokens">21 in, 5 out tokens</span>',
      'source <code>orders-db</code>',
      '<code>thumbs_up</code>',
      '<code>claude-test</code> <span class="tokens">3 in tokens</span>',
      '<code>comment</code> “nice”',
    ]) {
      expect(html).toContain(expected);
    }
  });

  it('lists conversations newest first, each with its id and where the id came from', () => {
    const store = storeWithData();
    const ids = () => [...page(store).matchAll(/data-conversation-id="([^"]+)"/g)].map(([, id]) => id);
    expect(ids()).toEqual(['chat-7', 'conversation-1']);
    expect(page(store)).toContain('single interactions (the <code>conversation_id</code> the app sent)');
    // Late feedback on the older conversation makes it the newest.
    const linked = store.addFeedback('dev-project', {
      action: { slug: 'thumbs_down' },
      metadata: { input: `Where is my order? ${HOSTILE}`, output: 'It shipped.', end_user: 'hashed-user-1', timestamp: '2026-03-01T11:00:00.000Z' },
    });
    expect(linked).toHaveProperty('interaction_id');
    expect(ids()).toEqual(['conversation-1', 'chat-7']);
    expect(page(store)).toContain('<code>thumbs_down</code> <span class="none">sent later</span>');
  });

  it('says how to fill it when nothing is stored', () => {
    expect(renderPage({ projects: [{ name: 'dev-project', conversations: [] }] })).toContain('Nothing stored yet.');
  });
});
