import type { Command } from 'commander';
import { registerConfigCheck } from './config-check.js';
import { registerConfigInit } from './config-init.js';

export function registerConfig(program: Command): void {
  const config = program.command('config').description('write and check routeplane.yaml');
  registerConfigInit(config);
  registerConfigCheck(config);
}
