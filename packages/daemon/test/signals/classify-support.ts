import type { Family } from '@routeplane/shared';
import { type Classified, classifyAnswer } from '../../src/signals/classify.js';
import { buf, type Headers, JSON_TYPE, LIMITS, NOW, SECRETS } from './fixtures.js';

/** One answer through the classifier, with the fixtures' clock, limits and secrets. */
export function classify(family: Family, status: number, body: string | Buffer | null, headers: Headers = JSON_TYPE): Classified {
  return classifyAnswer({ family, status, headers, body: typeof body === 'string' ? buf(body) : body, now: NOW, secrets: SECRETS }, LIMITS);
}
