import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/errors.js';
import type { FeedbackAction } from '../schemas/index.js';
import { feedbackAction } from './feedback.js';

describe('feedbackAction', () => {
  it('returns the wire object', () => {
    expect(feedbackAction({ slug: 'rating', value: 5 })).toEqual({ slug: 'rating', value: 5 });
    expect(JSON.stringify(feedbackAction({ slug: 'comment', text: 'nice' }))).toBe(
      '{"slug":"comment","text":"nice"}',
    );
  });

  it('rejects an unknown slug, and a value on anything but a rating', () => {
    expect(() => feedbackAction({ slug: 'like' } as unknown as FeedbackAction)).toThrow(/slug must be one of/);
    expect(() => feedbackAction({ slug: 'thumbs_up', value: 1 })).toThrow(ValidationError);
    expect(() => feedbackAction({ slug: 'thumbs_up', value: 1 })).toThrow(/value is only used with slug 'rating'/);
  });

  it('wants an integer rating', () => {
    expect(() => feedbackAction({ slug: 'rating', value: 4.5 })).toThrow(/value must be an integer/);
  });
});
