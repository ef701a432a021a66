import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCommands, completionTree, type CompletionCommand } from '../../src/completion/command-tree.js';
import { buildProgram } from '../../src/program.js';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';

const h = tempHome();
afterAll(h.remove);

const tree = completionTree(buildProgram());
const commands = allCommands(tree);
const scripts: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' };
const files: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' };

beforeAll(async () => {
  requireBuiltCli();
  const shells = ['bash', 'zsh', 'fish'] as const;
  const results = await Promise.all(shells.map((shell) => runCli(['completion', shell], isolatedEnv(h.dir), h.dir)));
  shells.forEach((shell, i) => {
    expect(results[i]!.code).toBe(0);
    scripts[shell] = results[i]!.stdout;
    files[shell] = join(h.dir, `routeplane.${shell}`);
    writeFileSync(files[shell], results[i]!.stdout);
  });
});

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const longOptions = (command: CompletionCommand) => command.options.flatMap((o) => o.names).filter((n) => n.startsWith('--'));
const subcommandNames = (command: CompletionCommand) => command.subcommands.map((s) => s.path.at(-1)!);

function run(shell: string, script: string): string {
  const result = spawnSync(shell, ['-c', script], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${shell} failed: ${result.stderr}`);
  return result.stdout;
}

describe('routeplane completion', () => {
  it('the tree it is generated from has every command and flag of the CLI', () => {
    const paths = commands.map((c) => c.path.join(' '));
    expect(paths).toEqual(
      expect.arrayContaining([
        'serve',
        'top',
        'status',
        'breakers',
        'breakers reset',
        'logs',
        'why',
        'usage',
        'reload',
        'breakers probe',
        'config',
        'config init',
        'config check',
        'demo',
        'completion',
      ]),
    );
    const demo = commands.find((c) => c.path.join(' ') === 'demo')!;
    expect(longOptions(demo)).toEqual(['--agents', '--no-top', '--duration', '--speed', '--scenario', '--json', '--help']);
    expect(commands.find((c) => c.path.join(' ') === 'completion')!.argumentChoices).toEqual(['bash', 'zsh', 'fish']);
    const by = commands.find((c) => c.path.join(' ') === 'usage')!.options.find((o) => o.names.includes('--by'));
    expect(by?.value).toEqual({ kind: 'choices', choices: ['seat', 'target', 'route', 'agent', 'session', 'day'] });
  });

  it.each(['bash', 'zsh', 'fish'] as const)('the %s script names every command and every flag', (shell) => {
    for (const command of commands) {
      for (const name of subcommandNames(command)) expect(scripts[shell], `${shell}: ${name}`).toContain(name);
      for (const option of command.options) {
        for (const name of option.names) {
          const written = shell === 'fish' ? (name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`) : name;
          expect(scripts[shell], `${shell}: ${command.path.join(' ')} ${name}`).toContain(written);
        }
      }
    }
  });

  it('without a shell names the three it knows, and exits 2', async () => {
    const result = await runCli(['completion'], isolatedEnv(h.dir), h.dir);
    expect(result).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: 'routeplane: completion needs a shell: bash, zsh or fish (e.g. `source <(routeplane completion bash)`)\n',
    });
  });

  it('bash -n accepts the bash script', () => {
    const result = spawnSync('bash', ['-n', files.bash], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('bash completes every command, option and choice', () => {
    const complete = (words: string[]) =>
      run(
        'bash',
        `source ${files.bash}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _routeplane; printf '%s\\n' "\${COMPREPLY[@]}"`,
      )
        .split('\n')
        .filter((l) => l !== '');
    for (const command of commands) {
      const words = ['routeplane', ...command.path];
      if (command.subcommands.length > 0) expect(complete([...words, '']).sort()).toEqual(subcommandNames(command).sort());
      expect(complete([...words, '--']).sort(), words.join(' ')).toEqual(longOptions(command).sort());
    }
    expect(complete(['routeplane', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    // an option's value is skipped while finding the command; a path option completes files
    expect(complete(['routeplane', 'breakers', 'reset', '--seat', 'reset', '--m'])).toEqual(['--model']);
    expect(complete(['routeplane', 'logs', '--config', files.bash.slice(0, -3)])).toEqual([files.bash]);
  });

  it.skipIf(!has('zsh'))('zsh -n accepts the zsh script, and its completer offers every command, option and choice', () => {
    expect(spawnSync('zsh', ['-n', files.zsh], { encoding: 'utf8' }).status).toBe(0);
    // zsh's completion builtins print what they were given; the prefix filtering is theirs, not ours
    const complete = (words: string[]) =>
      run(
        'zsh',
        [
          'compdef() { :; }',
          `source ${files.zsh}`,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's own ${…}, not a template
          '_describe() { local name=${@[-1]}; print -l -- ${${(P)name}%%:*}; }',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's own ${…}, not a template
          'compadd() { [[ $1 == -a ]] && print -l -- ${(P)2}; }',
          '_files() { print FILES; }',
          `words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}`,
          '_routeplane || true',
        ].join('\n'),
      )
        .split('\n')
        .filter(Boolean);
    for (const command of commands) {
      const words = ['routeplane', ...command.path];
      expect(complete([...words, '']).sort(), words.join(' ')).toEqual([...subcommandNames(command), ...command.argumentChoices].sort());
      expect(complete([...words, '--']).sort(), words.join(' ')).toEqual(command.options.flatMap((o) => o.names).sort());
    }
    expect(complete(['routeplane', 'breakers', 'reset', '--seat', 'reset', '--'])).toContain('--model');
    expect(complete(['routeplane', 'logs', '--config', ''])).toEqual(['FILES']);
  });

  it.skipIf(!has('fish'))('fish -n accepts the fish script, and fish completes every command and option', () => {
    expect(spawnSync('fish', ['-n', files.fish], { encoding: 'utf8' }).status).toBe(0);
    const complete = (line: string) =>
      run('fish', `source ${files.fish}; complete -C${JSON.stringify(line)}`)
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]!);
    for (const command of commands) {
      const line = ['routeplane', ...command.path].join(' ');
      if (command.subcommands.length > 0) expect(complete(`${line} `).sort()).toEqual(subcommandNames(command).sort());
      expect(complete(`${line} --`).sort(), line).toEqual(longOptions(command).sort());
    }
    expect(complete('routeplane completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
  });
});
