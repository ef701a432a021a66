// CPU time by thread of a process (Linux /proc): the main thread, libuv's pool,
// V8's GC helpers — where a proxy's CPU per request goes outside its JS.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** thread name → CPU µs used so far (threads of the same name summed) */
export function threadTimes(pid) {
  const out = {};
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const us = (Number(fields[11]) + Number(fields[12])) * TICK_US;
      const key = Number(tid) === pid ? 'main' : name;
      out[key] = (out[key] ?? 0) + us;
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

export function threadDelta(before, after) {
  const out = {};
  for (const [k, v] of Object.entries(after)) out[k] = v - (before[k] ?? 0);
  return out;
}
