export { type DemoCredentials, seedDemo } from './demo.seed';
export { type EmbeddedApp, startEmbeddedApp } from './embedded.app';
export { startAllServices } from './start-all-services';
