import { describe, expect, it } from 'vitest';
import { scanWork } from './chars.js';
import { maskText } from './scan.js';

describe('maskText finds', () => {
  it.each([
    ['write to ana.b+news@example.co.uk. thanks', 'write to [EMAIL]. thanks'],
    ['<ops@mail-1.example.io>', '<[EMAIL]>'],
    ['two: a@x.org,b@y.net', 'two: [EMAIL],[EMAIL]'],
  ])('e-mail addresses: %j', (text, masked) => expect(maskText(text)).toBe(masked));

  it.each([
    ['call +1 (415) 555-2671 now', 'call [PHONE] now'],
    ['+44 20 7946 0958', '[PHONE]'],
    ['+442079460958', '[PHONE]'],
    ['415-555-2671, 415.555.2671, (415)555-2671, 4155552671', '[PHONE], [PHONE], [PHONE], [PHONE]'],
    ['tel 06 12 34 56 78.', 'tel [PHONE].'],
  ])('phone numbers: %j', (text, masked) => expect(maskText(text)).toBe(masked));

  it.each([
    ['card 4111 1111 1111 1111, exp 12/29', 'card [CARD], exp 12/29'],
    ['5500-0000-0000-0004', '[CARD]'],
    ['amex 3782 822463 10005 ok', 'amex [CARD] ok'],
    ['4242424242424242', '[CARD]'],
  ])('card numbers that pass the Luhn check: %j', (text, masked) => expect(maskText(text)).toBe(masked));

  it.each([
    ['IBAN: GB82 WEST 1234 5698 7654 32.', 'IBAN: [IBAN].'],
    ['DE89370400440532013000 is mine', '[IBAN] is mine'],
    ['fr1420041010050500013m02606', '[IBAN]'],
    ['NO9386011117947', '[IBAN]'],
  ])('IBANs that pass the mod-97 check: %j', (text, masked) => expect(maskText(text)).toBe(masked));

  it.each([
    ['key: sk-proj-4fQx9ZpL2mN8vR1tY6wK', 'key: [SECRET]'],
    ['export OPENAI_API_KEY=sk-ant-api03-abcdefghijklmnop', 'export OPENAI_API_KEY=[SECRET]'],
    ['Authorization: Bearer abc.def.ghi-123', 'Authorization: Bearer [SECRET]'],
    ['AKIAIOSFODNN7EXAMPLE', '[SECRET]'],
    ['token ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'token [SECRET]'],
    ['the value aKx93Lm2Qp8Rz7Wv1Ty5Bn4Hj6Gf0Ds3 leaked', 'the value [SECRET] leaked'],
    ['sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'sha [SECRET]'],
  ])('API keys and tokens: %j', (text, masked) => expect(maskText(text)).toBe(masked));
});

describe('maskText leaves', () => {
  it.each([
    'on 2024-01-15 10:30 at 192.168.100.200',
    'pi is 3.14159265358979, 1234567890.5 and 0.12 0.34 0.56 0.78 0.90',
    'order 4111 1111 1111 1112 (fails Luhn), 555-1234',
    'GB82WEST12345698765433 (fails mod 97)',
    'state-of-the-art-retrieval-augmented-generation-2024',
    '/api/v1/conversations/search/by-user/feedback/latest',
    'a@b, x@y.c, @handle, sk-short, Bearer short',
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1',
    'ref4111111111111111, 41111111111111111111, 4111111111111111x',
  ])('ordinary text: %j', (text) => expect(maskText(text)).toBe(text));

  it.each([
    ['order 123456789012 shipped', 'order [PHONE] shipped'],
    ['uuid 550e8400-e29b-41d4-a716-446655440000', 'uuid [SECRET]'],
    ['data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk', 'data:image/png;base64,[SECRET]'],
  ])('and masks, as documented, some things that are not personal: %j', (text, masked) => expect(maskText(text)).toBe(masked));

  it('the same string, not a copy, when there is nothing to mask', () => {
    const text = 'Hello, how can I help?';
    expect(maskText(text)).toBe(text);
  });

  it('its own labels as they are: masking twice changes nothing', () => {
    const once = maskText('a@b.io +44 20 7946 0958 4111111111111111 DE89370400440532013000 sk-abcdefghijklmnopqrstu');
    expect(once).toBe('[EMAIL] [PHONE] [CARD] [IBAN] [SECRET]');
    expect(maskText(once)).toBe(once);
  });
});

// Near misses make a backtracking regex or a naive scanner quadratic: each start rescans
// what follows. The scanners' own count of characters looked at must grow with the size
// of the text, 10x for 10x, and stay a small multiple of it.
const NEAR_MISSES: Record<string, string> = {
  'local parts without @': 'a.a.a.a.a.a.a.',
  'at signs': 'a@a@a@a@',
  'domains without a TLD': 'x@aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-',
  'digits': '1',
  'digit groups': '1 2-3.4 ',
  'phone starts': '+1 (2',
  'long digit runs': '41111111111111111111111111111111 ',
  'IBAN starts': 'DE89 3704 0044 0532 0130 01 ',
  'bearer words': 'Bearer Bearer bearer\t',
  'key prefixes': 'sk-sk_ghp_/AKIA+',
  'token runs': 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6/',
  'padding': '==a=',
};

function workFor(text: string): number {
  const before = scanWork.visits;
  maskText(text);
  return scanWork.visits - before;
}

describe('maskText is linear in its input', () => {
  it.each(Object.entries(NEAR_MISSES))('on %s', (_name, unit) => {
    const small = unit.repeat(Math.ceil(3_000 / unit.length));
    const large = unit.repeat(Math.ceil(30_000 / unit.length));
    const smallWork = workFor(small);
    const largeWork = workFor(large);
    expect(largeWork / smallWork).toBeLessThan(10.5 * (large.length / small.length) / 10);
    expect(largeWork / large.length).toBeLessThan(60);
  });
});
