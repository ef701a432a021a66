// Runs the vitest microbenchmarks (bench/micro/*.bench.ts) and reads their JSON report.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE, pinnedCommand } from './processes.mjs';

export function runMicro(root, outDir, log) {
  const outFile = join(outDir, 'micro.json');
  const { command, args } = pinnedCommand(CORE.proxy, 'pnpm', [
    'exec',
    'vitest',
    'bench',
    '--run',
    '--config',
    'bench/vitest.bench.config.ts',
    '--outputJson',
    outFile,
  ]);
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    proc.stdout.on('data', (d) => (output += d));
    proc.stderr.on('data', (d) => (output += d));
    const killer = setTimeout(() => proc.kill('SIGKILL'), 180_000);
    proc.on('error', reject);
    proc.on('exit', (code) => {
      clearTimeout(killer);
      if (code !== 0) {
        log(output);
        return reject(new Error(`vitest bench exited with ${code}`));
      }
      const report = JSON.parse(readFileSync(outFile, 'utf8'));
      const rows = [];
      for (const file of report.files) {
        for (const group of file.groups) {
          for (const b of group.benchmarks) {
            rows.push({
              group: group.fullName.split(' > ').slice(1).join(' › '),
              name: b.name,
              medianUs: b.median * 1000,
              meanUs: b.mean * 1000,
              p99Us: b.p99 * 1000,
              samples: b.sampleCount,
            });
          }
        }
      }
      resolve(rows);
    });
  });
}
