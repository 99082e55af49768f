// Helpers for tests of any package: never imported by the product's own code.
export * from './fake-openai.server';
export * from './infra';
export * from './private-servers';
export * from './service-under-test';
export * from './test-infrastructure';
