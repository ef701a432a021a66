import { describe, expect, it } from 'vitest';
import { compileAliases } from '../../src/policy/aliases.js';
import { checkPin, type Pin, type PinChainEntry, parsePinHeader, resolveRequested } from '../../src/policy/pins.js';

const SEATS = new Set(['max-1', 'max-2', 'api', 'router']);
const resolver = compileAliases(['sonnet', 'haiku', 'max-1/sonnet'], { fast: 'sonnet', 'claude-*': 'sonnet', '*': 'haiku' });

/** Route "sonnet": two Anthropic seats, a drained one, an OpenAI-compatible one, and a seat listed twice. */
const SONNET: PinChainEntry[] = [
  { seat: 'max-1', model: 'claude-sonnet-5', weight: 2, family: 'anthropic' },
  { seat: 'max-2', model: 'claude-sonnet-5', weight: 1, family: 'anthropic' },
  { seat: 'api', model: 'claude-sonnet-5', weight: 0, family: 'anthropic' },
  { seat: 'router', model: 'anthropic/claude-sonnet-4.5', weight: 1, family: 'openai' },
  { seat: 'max-2', model: 'claude-opus-4-1', weight: 1, family: 'anthropic' },
];

describe('the pin header', () => {
  it.each([
    ['max-1', { seat: 'max-1', model: null }],
    ['max-1/claude-sonnet-5', { seat: 'max-1', model: 'claude-sonnet-5' }],
    // a model id may itself hold slashes; a seat id never does
    ['router/anthropic/claude-sonnet-4.5', { seat: 'router', model: 'anthropic/claude-sonnet-4.5' }],
    ['/x', { seat: '', model: 'x' }],
    ['max-1/', { seat: 'max-1', model: '' }],
  ])('%j → %j', (value, expected) => {
    expect(parsePinHeader(value)).toEqual({ ...expected, source: 'header', text: value });
  });

  it('absent or empty: no pin; repeated: the first', () => {
    expect(parsePinHeader(undefined)).toBeNull();
    expect(parsePinHeader('')).toBeNull();
    expect(parsePinHeader(['max-2', 'max-1'])).toMatchObject({ seat: 'max-2' });
  });
});

describe('a pin in the model name', () => {
  it('SEAT/ROUTE and SEAT/ALIAS pin the seat on the route they reach', () => {
    expect(resolveRequested('max-2/sonnet', resolver, SEATS)).toEqual({
      route: 'sonnet',
      pin: { seat: 'max-2', model: null, source: 'model', text: 'max-2/sonnet' },
    });
    expect(resolveRequested('max-2/fast', resolver, SEATS)).toMatchObject({ route: 'sonnet', pin: { seat: 'max-2' } });
    expect(resolveRequested('max-2/claude-sonnet-4-5-20250929', resolver, SEATS)).toMatchObject({
      route: 'sonnet',
      pin: { seat: 'max-2' },
    });
  });

  it('an exact route name with a slash always wins', () => {
    expect(resolveRequested('max-1/sonnet', resolver, SEATS)).toEqual({ route: 'max-1/sonnet', pin: null });
  });

  it('a pin comes before the patterns, so a catch-all cannot swallow it', () => {
    expect(resolveRequested('max-1/haiku', resolver, SEATS)).toMatchObject({ route: 'haiku', pin: { seat: 'max-1' } });
  });

  it('a prefix that is no seat is a plain model name (OpenRouter-style ids go to the patterns)', () => {
    expect(resolveRequested('openai/gpt-4o', resolver, SEATS)).toEqual({ route: 'haiku', pin: null });
    expect(resolveRequested('sonnet', resolver, SEATS)).toEqual({ route: 'sonnet', pin: null });
  });

  it('a seat with a name that reaches no route is an unknown model', () => {
    const noCatchAll = compileAliases(['sonnet'], {});
    expect(resolveRequested('max-1/nothing', noCatchAll, SEATS)).toEqual({ route: null, pin: null });
  });
});

describe('checking a pin against the resolved route', () => {
  const pin = (text: string): Pin => parsePinHeader(text)!;

  it.each([
    ['max-1', 0],
    ['max-2', 1],
    ['max-2/claude-opus-4-1', 4],
    ['max-2/claude-sonnet-5', 1],
  ])('%s → configured entry %d (a whole-seat pin takes the seat first entry)', (text, index) => {
    expect(checkPin(pin(text), 'sonnet', SONNET, 'anthropic', SEATS)).toEqual({ ok: true, index });
  });

  it.each([
    ['nope', 'unknown', 'pin "nope" refused: unknown (no seat "nope")'],
    ['nope/claude-sonnet-5', 'unknown', 'pin "nope/claude-sonnet-5" refused: unknown (no seat "nope")'],
    ['/claude-sonnet-5', 'unknown', 'pin "/claude-sonnet-5" refused: unknown (write SEAT or SEAT/MODEL)'],
    ['max-1/', 'unknown', 'pin "max-1/" refused: unknown (write SEAT or SEAT/MODEL)'],
    [
      'max-1/claude-opus-4-1',
      'not_in_chain',
      'pin "max-1/claude-opus-4-1" refused: not_in_chain (route "sonnet" has no target "max-1/claude-opus-4-1")',
    ],
    ['api', 'drained', 'pin "api" refused: drained (api/claude-sonnet-5 has weight 0 in route "sonnet")'],
    [
      'router',
      'protocol',
      'pin "router" refused: protocol (router/anthropic/claude-sonnet-4.5 speaks the openai protocol, this request anthropic)',
    ],
  ])('%s → %s', (text, reason, message) => {
    expect(checkPin(pin(text), 'sonnet', SONNET, 'anthropic', SEATS)).toEqual({ ok: false, reason, message });
  });

  it('a seat with no entry in the route is not_in_chain', () => {
    const haiku: PinChainEntry[] = [{ seat: 'max-1', model: 'claude-haiku-4-5', weight: 1, family: 'anthropic' }];
    expect(checkPin(pin('max-2'), 'haiku', haiku, 'anthropic', SEATS)).toMatchObject({
      ok: false,
      reason: 'not_in_chain',
      message: 'pin "max-2" refused: not_in_chain (route "haiku" has no target on seat "max-2")',
    });
  });

  it('for a whole seat, its first entry decides, even when a later one would do', () => {
    const chain: PinChainEntry[] = [
      { seat: 'max-2', model: 'claude-sonnet-5', weight: 0, family: 'anthropic' },
      { seat: 'max-2', model: 'claude-sonnet-5-b', weight: 1, family: 'anthropic' },
    ];
    expect(checkPin(pin('max-2'), 'sonnet', chain, 'anthropic', SEATS)).toMatchObject({ ok: false, reason: 'drained' });
    expect(checkPin(pin('max-2/claude-sonnet-5-b'), 'sonnet', chain, 'anthropic', SEATS)).toEqual({ ok: true, index: 1 });
  });

  it('the other family is refused as protocol, from either side', () => {
    expect(checkPin(pin('router'), 'sonnet', SONNET, 'openai', SEATS)).toEqual({ ok: true, index: 3 });
    expect(checkPin(pin('max-1'), 'sonnet', SONNET, 'openai', SEATS)).toMatchObject({ ok: false, reason: 'protocol' });
  });

  it('a pin from the model name is checked the same way, and named as the agent wrote it', () => {
    const asked = resolveRequested('api/sonnet', resolver, SEATS);
    if (asked.pin === null) throw new Error('expected a pin');
    expect(checkPin(asked.pin, asked.route, SONNET, 'anthropic', SEATS)).toEqual({
      ok: false,
      reason: 'drained',
      message: 'pin "api/sonnet" refused: drained (api/claude-sonnet-5 has weight 0 in route "sonnet")',
    });
  });

  it('a very long pin is cut in the message', () => {
    for (const long of [`x${'y'.repeat(500)}`, `max-1/${'y'.repeat(500)}`]) {
      const checked = checkPin(pin(long), 'sonnet', SONNET, 'anthropic', SEATS);
      if (checked.ok) throw new Error('expected a refusal');
      expect(checked.message.length).toBeLessThan(600);
      expect(checked.message).toContain('…');
    }
  });
});
