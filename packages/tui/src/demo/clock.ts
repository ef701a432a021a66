/**
 * Scenario time: real elapsed time multiplied by `--speed`. Everything the
 * scenario states in seconds (timeline, pacing, cooldowns, Retry-After) goes
 * through here so one knob compresses the whole story.
 */
export class ScenarioClock {
  private readonly startedAt: number;

  constructor(
    readonly speed: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`speed must be a positive number (got ${speed})`);
    this.startedAt = now();
  }

  /** scenario seconds since the demo started */
  seconds(): number {
    return ((this.now() - this.startedAt) / 1000) * this.speed;
  }

  /** how long `scenarioSecs` lasts in real milliseconds */
  realMs(scenarioSecs: number): number {
    return (scenarioSecs * 1000) / this.speed;
  }

  /** scenario seconds as the real seconds a daemon or a header should see */
  realSecs(scenarioSecs: number): number {
    return scenarioSecs / this.speed;
  }
}
