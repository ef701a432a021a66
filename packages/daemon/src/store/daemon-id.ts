/**
 * A daemon's id: `HOSTNAME:PID`, the short host name
 * — `os.hostname()` up to its first `.` — so two daemons on one machine
 * differ by PID and the same machine reads the same whatever its domain.
 */
export function defaultDaemonId(host: string, pid: number): string {
  return `${host.split('.')[0]}:${pid}`;
}
