export { startEmbeddedApp, type EmbeddedApp } from './embedded.app';
export { startAllServices } from './start-all-services';
export { seedDemo, type DemoCredentials } from './demo.seed';
