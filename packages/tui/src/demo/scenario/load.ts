import { readFile } from 'node:fs/promises';
import { formatIssue, parseYamlWithSchema, type ConfigIssue, type RawIssue } from '@routeplane/shared';
import { packageFile } from '../../package-file.js';
import { scenarioSchema, type Scenario } from './schema.js';

export type ScenarioIssue = ConfigIssue;

export type ScenarioResult = { ok: true; file: string; scenario: Scenario } | { ok: false; file: string; issues: ScenarioIssue[] };

/** The scenario `routeplane demo` plays when no --scenario is given. */
export const DEFAULT_SCENARIO_FILE = packageFile('scenarios/default.yaml');

export { formatIssue as formatScenarioIssue };

export async function loadScenario(file: string): Promise<ScenarioResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? String(err)})`;
    return { ok: false, file, issues: [{ file, path: '', message: why }] };
  }
  return parseScenario(text, file);
}

/** Parses YAML text and validates it; `file` only names where it came from. */
export function parseScenario(text: string, file: string): ScenarioResult {
  const parsed = parseYamlWithSchema(text, file, scenarioSchema);
  if (!parsed.ok) return { ok: false, file, issues: parsed.issues };
  const issues = parsed.locate(crossCheck(parsed.data));
  return issues.length > 0 ? { ok: false, file, issues } : { ok: true, file, scenario: parsed.data };
}

/** What the schema alone cannot see: references between seats, models and routes, and time. */
export function crossCheck(scenario: Scenario): RawIssue[] {
  const issues: RawIssue[] = [];
  const seats = new Map<string, Set<string>>();
  scenario.seats.forEach((seat, i) => {
    if (seats.has(seat.id)) issues.push({ path: ['seats', i, 'id'], message: `duplicate seat id "${seat.id}"` });
    else seats.set(seat.id, new Set(seat.models));
    seat.timeline.forEach((phase, j) => {
      const at = ['seats', i, 'timeline', j];
      if (phase.model !== undefined && !seat.models.includes(phase.model)) {
        issues.push({
          path: [...at, 'model'],
          message: `"${phase.model}" is not a model of seat ${seat.id} (models: ${seat.models.join(', ')})`,
        });
      }
      if (phase.to !== undefined && phase.to <= phase.from) {
        issues.push({ path: [...at, 'to'], message: `must be after from (${phase.from})` });
      }
      if (scenario.repeat_every !== null && phase.from >= scenario.repeat_every) {
        issues.push({ path: [...at, 'from'], message: `never plays: repeat_every is ${scenario.repeat_every}` });
      }
      if (phase.phase === 'rate_limited' && phase.retry_after === 'phase_end' && phase.to === undefined) {
        issues.push({ path: [...at, 'to'], message: 'required when retry_after is phase_end' });
      }
      if (phase.phase === 'quota_out' && phase.resets === 'phase_end' && phase.to === undefined) {
        issues.push({ path: [...at, 'to'], message: 'required when resets is phase_end' });
      }
    });
  });
  const routes = new Set<string>();
  scenario.routes.forEach((route, i) => {
    if (routes.has(route.model)) issues.push({ path: ['routes', i, 'model'], message: `duplicate route "${route.model}"` });
    routes.add(route.model);
    route.chain.forEach((ref, j) => {
      const [seat, model] = splitTarget(ref);
      const models = seats.get(seat);
      if (!models) {
        issues.push({ path: ['routes', i, 'chain', j], message: `unknown seat "${seat}" (declared: ${[...seats.keys()].join(', ')})` });
      } else if (!models.has(model)) {
        issues.push({
          path: ['routes', i, 'chain', j],
          message: `"${model}" is not a model of seat ${seat} (models: ${[...models].join(', ')})`,
        });
      }
    });
  });
  scenario.scenes.forEach((scene, i) => {
    if (i > 0 && scene.at < scenario.scenes[i - 1]!.at) issues.push({ path: ['scenes', i, 'at'], message: 'scenes must be in time order' });
    if (scenario.repeat_every !== null && scene.at >= scenario.repeat_every) {
      issues.push({ path: ['scenes', i, 'at'], message: `never plays: repeat_every is ${scenario.repeat_every}` });
    }
  });
  if (!scenario.routes.some((r) => r.weight > 0)) {
    issues.push({ path: ['routes'], message: 'at least one route needs a weight above 0 (agents would have nowhere to go)' });
  }
  return issues;
}

/** `seat/model` → [seat, model]; the model may itself contain slashes. */
export function splitTarget(ref: string): [string, string] {
  const slash = ref.indexOf('/');
  return [ref.slice(0, slash), ref.slice(slash + 1)];
}
