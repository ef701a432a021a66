/** The environment variables a config names are read from (process.env, or a test's own). */
export interface Env {
  [name: string]: string | undefined;
}
