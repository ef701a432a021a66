export * from './config/schema.js';
export * from './config/load.js';
export * from './events.js';
export * from './snapshot.js';
export * from './protocol.js';
export * from './ndjson.js';
export * from './version.js';
export * from './paths.js';
