/**
 * The `probe` command: a seat, or one target, whose
 * open breakers become probe-ready now. The answer comes back as a value.
 */
export type ProbeOutcome =
  | { readonly ok: true; readonly madeReady: number }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** The request's arguments in the control protocol's terms. */
export function probeArgs(seat: string, model?: string): { seat: string; model?: string } {
  return model === undefined ? { seat } : { seat, model };
}
