import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatIssue, parseConfig } from '@routeplane/shared';
import { parse } from 'plist';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const DOC = readFileSync(join(REPO_ROOT, 'docs/running.md'), 'utf8');

function block(language: string): string {
  const blocks = [...DOC.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
  expect(blocks, `one ${language} block in docs/running.md`).toHaveLength(1);
  return blocks[0]!;
}

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

const work = mkdtempSync(join(tmpdir(), 'rp-running-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('docs/running.md', () => {
  const unit = block('ini');

  it('the systemd unit runs serve with its config and keys file, restarts on failure but not on a config error, reloads with SIGHUP', () => {
    // the daemon reads the keys file itself, so a reload reads it again (an EnvironmentFile is read once, at start)
    expect(unit).toMatch(/^ExecStart=\S+\/routeplane serve --config \S+ --env-file %h\/\.config\/routeplane\/keys\.env$/m);
    expect(unit).not.toMatch(/^EnvironmentFile=/m);
    expect(unit).toMatch(/^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^RestartPreventExitStatus=2 9$/m);
    expect(unit).toMatch(/^WantedBy=default\.target$/m);
  });

  it.skipIf(!has('systemd-analyze'))('systemd-analyze verify --user accepts the unit without a single remark', () => {
    // a home where the unit's ExecStart exists, so verify checks everything else
    const home = join(work, 'home');
    const execStart = /^ExecStart=(\S+)/m.exec(unit)![1]!.replace('%h', home);
    mkdirSync(resolve(execStart, '..'), { recursive: true });
    writeFileSync(execStart, '#!/bin/sh\n');
    chmodSync(execStart, 0o755);
    mkdirSync(join(work, 'runtime'), { recursive: true });
    const verify = (text: string) => {
      const dir = mkdtempSync(join(work, 'unit-'));
      writeFileSync(join(dir, 'routeplane.service'), text);
      return spawnSync('systemd-analyze', ['verify', '--user', join(dir, 'routeplane.service')], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: home, XDG_RUNTIME_DIR: join(work, 'runtime') },
      });
    };
    const result = verify(unit);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // and it does speak up about a mistake, so its silence above means something
    expect(verify(unit.replace('Restart=on-failure', 'Restart=on-failure\nRestartt=always')).stderr).toMatch(/Unknown key 'Restartt'/);
  });

  it('the launchd plist is a valid property list that runs serve with the keys file and logs to a file', () => {
    const xml = block('xml');
    if (has('plutil')) {
      const file = join(work, 'dev.routeplane.serve.plist');
      writeFileSync(file, xml);
      expect(spawnSync('plutil', ['-lint', file], { encoding: 'utf8' }).status).toBe(0);
    }
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<!DOCTYPE plist PUBLIC "-\/\/Apple\/\/DTD PLIST 1\.0\/\/EN"/);
    const agent = parse(xml) as Record<string, unknown>;
    expect(agent.Label).toBe('dev.routeplane.serve');
    const args = agent.ProgramArguments as string[];
    expect(args.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(args[2]).toBe(
      'exec routeplane serve --config "$HOME/.config/routeplane/routeplane.yaml" --env-file "$HOME/.config/routeplane/keys.env"',
    );
    // the shell line itself is valid sh
    expect(spawnSync('sh', ['-n', '-c', args[2]!]).status).toBe(0);
    expect(agent.RunAtLoad).toBe(true);
    expect(agent.KeepAlive).toEqual({ SuccessfulExit: false });
    expect(agent.StandardOutPath).toMatch(/\/Library\/Logs\/routeplane\/serve\.log$/);
    expect(agent.StandardErrorPath).toBe(agent.StandardOutPath);
    expect(Object.keys(agent.EnvironmentVariables as object)).toEqual(['PATH']);
  });

  it('the desktop notification recipes are notify blocks the config takes, each program named by its full path', () => {
    const section = DOC.slice(DOC.indexOf('## Desktop notifications'));
    const recipes = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(recipes).toHaveLength(2);
    const commands = recipes.map((recipe) => {
      const text = [
        'seats: [{ id: a, provider: anthropic, base_url: "https://api.anthropic.com", api_key_env: K }]',
        'routes: [{ model: r, chain: [{ seat: a, model: m }] }]',
        recipe,
      ].join('\n');
      const result = parseConfig(text, 'recipe.yaml', { K: 'k', PATH: '' });
      expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
      return result.ok ? result.config.notify?.command : null;
    });
    // Linux: summary Routeplane, the notification (appended last) its body
    expect(commands[0]).toEqual(['/usr/bin/notify-send', '--app-name=Routeplane', 'Routeplane']);
    // macOS: the run handler shows its one argument, the notification
    expect(commands[1]).toEqual([
      '/usr/bin/osascript',
      '-e',
      'on run argv',
      '-e',
      'display notification (item 1 of argv) with title "Routeplane"',
      '-e',
      'end run',
    ]);
  });

  it('says how to check the config with the keys the service will have', () => {
    expect(DOC).toContain('routeplane config check --env-file ~/.config/routeplane/keys.env');
  });

  it('says how to reload with SIGHUP and where the logs go', () => {
    expect(DOC).toMatch(/^## Reloading the config: SIGHUP$/m);
    expect(DOC).toMatch(/^## Where the logs go$/m);
    expect(DOC).toContain('journalctl --user -u routeplane');
    expect(DOC).toContain('~/.routeplane/decisions.ndjson');
  });
});
