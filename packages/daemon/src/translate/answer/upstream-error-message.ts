/** The message of an error object as any of the wires reports it (`{message}`, a bare string), or a stand-in. */
export function upstreamErrorMessage(error: unknown): string {
  if (typeof error === 'string' && error !== '') return error;
  if (error !== null && typeof error === 'object') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return 'the upstream reported an error mid-stream';
}
