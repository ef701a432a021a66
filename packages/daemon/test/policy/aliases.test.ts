import { describe, expect, it } from 'vitest';
import { compileAliases } from '../../src/policy/aliases.js';

const ROUTES = ['sonnet', 'haiku', 'opus', 'gpt/5'];

describe('exact names', () => {
  const r = compileAliases(ROUTES, { fast: 'sonnet', cheap: 'fast', cheapest: 'cheap', nowhere: 'no-such-thing' });

  it('a route is itself', () => {
    expect(r.resolve('sonnet')).toBe('sonnet');
    expect(r.resolve('gpt/5')).toBe('gpt/5');
  });

  it('an alias, and chains of aliases, reach their route', () => {
    expect(r.resolve('fast')).toBe('sonnet');
    expect(r.resolve('cheap')).toBe('sonnet');
    expect(r.resolve('cheapest')).toBe('sonnet');
  });

  it('an alias naming nothing, and a name nobody declared, are unknown', () => {
    expect(r.resolve('nowhere')).toBeNull();
    expect(r.resolve('claude-sonnet-5')).toBeNull();
    expect(r.resolve('')).toBeNull();
  });

  it('object-prototype names are just unknown', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) expect(r.resolve(name)).toBeNull();
  });

  it('exact names are the routes and the aliases, not the patterns', () => {
    const withPatterns = compileAliases(ROUTES, { fast: 'sonnet', 'claude-*': 'sonnet' });
    expect(withPatterns.isExactName('sonnet')).toBe(true);
    expect(withPatterns.isExactName('fast')).toBe(true);
    expect(withPatterns.isExactName('claude-x')).toBe(false);
    expect(withPatterns.isExactName('claude-*')).toBe(false);
  });
});

describe('cycles', () => {
  it('resolve back to the requested name, which is not a route: unknown', () => {
    const r = compileAliases(ROUTES, { a: 'b', b: 'a', c: 'c', d: 'e', e: 'f', f: 'd', g: 'd' });
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) expect(r.resolve(name)).toBeNull();
  });

  it('through patterns too, without looping', () => {
    const r = compileAliases(ROUTES, { 'claude-*': 'claude-x-loop', 'claude-x-*': 'claude-y' });
    expect(r.resolve('claude-anything')).toBeNull();
    expect(r.resolve('claude-x-1')).toBeNull();
  });
});

describe('patterns', () => {
  const r = compileAliases(ROUTES, {
    'claude-*': 'sonnet',
    'claude-haiku-*': 'haiku',
    '*-opus-*': 'opus',
    'gpt-*-mini': 'haiku',
    '*': 'sonnet-fallback',
    'sonnet-fallback': 'sonnet',
  });

  it('the dated ids a client sends reach a route', () => {
    expect(r.resolve('claude-haiku-4-5-20251001')).toBe('haiku');
    expect(r.resolve('claude-sonnet-4-5-20250929')).toBe('sonnet');
    expect(r.resolve('gpt-4.1-mini')).toBe('haiku');
  });

  it('the pattern with the most non-* characters wins', () => {
    // claude-* (7) and *-opus-* (6) both match: claude-* wins
    expect(r.resolve('claude-opus-4-1')).toBe('sonnet');
    expect(r.resolve('anthropic-opus-4')).toBe('opus');
  });

  it('an exact route or alias name wins over every pattern', () => {
    expect(r.resolve('haiku')).toBe('haiku');
    expect(r.resolve('sonnet-fallback')).toBe('sonnet');
  });

  it('a catch-all pattern catches the rest, through its alias chain', () => {
    expect(r.resolve('mistral-large')).toBe('sonnet');
  });

  it('ties in specificity go to the pattern written first', () => {
    const first = compileAliases(ROUTES, { 'a*': 'haiku', '*z': 'opus' });
    const second = compileAliases(ROUTES, { '*z': 'opus', 'a*': 'haiku' });
    expect(first.resolve('abcz')).toBe('haiku');
    expect(second.resolve('abcz')).toBe('opus');
  });

  it.each([
    ['ab*', 'ab', true],
    ['ab*', 'abc', true],
    ['ab*', 'a', false],
    ['*ab', 'ab', true],
    ['a*b', 'ab', true],
    ['a*b', 'aXb', true],
    ['a*b', 'aba', false],
    ['a*a', 'a', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*bc*bc', 'abcbc', true],
    ['a*bc*bc', 'abc', false],
    ['*.*', 'x.y', true],
    ['*.*', 'xy', false],
    ['a**b', 'ab', true],
    ['(x)*', '(x)+', true],
    ['[a]*', 'a', false],
  ])('%s matches %j: %s (plain characters, * for any run)', (pattern, name, matches) => {
    const one = compileAliases(ROUTES, { [pattern]: 'opus' });
    expect(one.resolve(name)).toBe(matches ? 'opus' : null);
  });
});
