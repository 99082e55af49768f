import 'reflect-metadata';
import { IdentityMessages, SearchMessages } from '@palaver/contracts';
import { createInfrastructure, loadConfig } from '@palaver/platform';
import { seedDemo } from './demo.seed';

/**
 * The one-off seeding job of a distributed deployment (compose's `seed`): waits for identity and
 * search to answer, creates the demo project on a fresh install, prints its keys, exits.
 */
const config = loadConfig();
const infra = await createInfrastructure(config, { only: [] });
const deadline = Date.now() + 120_000;
for (const health of [IdentityMessages.health, SearchMessages.health]) {
  for (;;) {
    try {
      await infra.services.send(health, {}, { timeoutMs: 2_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}
const demo = await seedDemo(infra.services, config.DATA_DIR);
console.log(
  demo
    ? `Demo project ${demo.projectId}\n  Publishable key  ${demo.publishableKey}\n  Private key      ${demo.privateKey}`
    : 'A project exists already: nothing seeded.',
);
await infra.close();
process.exit(0);
