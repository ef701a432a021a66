import { describe, expect, it } from 'vitest';
import { SessionSeats } from '../../src/policy/session-seats.js';

function clock() {
  const c = { t: 1_000_000, now: () => c.t };
  return c;
}

describe('the session table of balance: drain', () => {
  it('remembers the seat that last served a session', () => {
    const table = new SessionSeats(clock());
    expect(table.seatOf('s1')).toBeNull();
    table.served('s1', 'max-1');
    table.served('s2', 'max-2');
    table.served('s1', 'max-2');
    expect([table.seatOf('s1'), table.seatOf('s2'), table.size]).toEqual(['max-2', 'max-2', 2]);
  });

  it('holds 10,000 sessions by default and drops the least recently served one past that', () => {
    const table = new SessionSeats(clock());
    expect(table.capacity).toBe(10_000);
    for (let i = 0; i < 10_000; i++) table.served(`s${i}`, 'a');
    table.served('s0', 'b'); // s0 served again: s1 is now the least recent
    table.served('s10000', 'a');
    expect(table.size).toBe(10_000);
    expect(table.seatOf('s1')).toBeNull();
    expect(table.seatOf('s0')).toBe('b');
    expect(table.seatOf('s2')).toBe('a');
    expect(table.seatOf('s10000')).toBe('a');
  });

  it('forgets a session unseen for an hour, whether it is asked for or others are served', () => {
    const c = clock();
    const table = new SessionSeats(c);
    expect(table.idleMs).toBe(3_600_000);
    table.served('old', 'a');
    table.served('quiet', 'a');
    c.t += 3_600_000;
    expect(table.seatOf('old')).toBe('a'); // exactly an hour: still kept
    c.t += 1;
    expect(table.seatOf('old')).toBeNull();
    expect(table.size).toBe(1);
    table.served('new', 'b'); // serving sweeps the idle ones from the least recent end
    expect(table.size).toBe(1);
    expect(table.seatOf('quiet')).toBeNull();
    expect(table.seatOf('new')).toBe('b');
  });

  it('a small capacity is honoured the same way', () => {
    const table = new SessionSeats(clock(), 2, 1_000);
    table.served('a', '1');
    table.served('b', '2');
    table.served('c', '3');
    expect([table.seatOf('a'), table.seatOf('b'), table.seatOf('c'), table.size]).toEqual([null, '2', '3', 2]);
  });
});
