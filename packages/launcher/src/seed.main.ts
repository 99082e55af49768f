import 'reflect-metadata';
import { resolve } from 'node:path';
import { IdentityMessages, SearchMessages } from '@palaver/contracts';
import { createInfrastructure, loadConfig } from '@palaver/platform';
import { demoCredentialsPath, seedDemo } from './demo.seed';

/**
 * The one-off seeding job of a distributed deployment (compose's `seed`): waits for identity and
 * search to answer, creates the demo project on a fresh install, prints its keys, exits. Run again
 * (`docker compose run --rm seed`), it prints the same keys from DATA_DIR, or says where they went.
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
const saved = demoCredentialsPath(resolve(config.DATA_DIR));
let status = 0;
try {
  const demo = await seedDemo(infra.services, config.DATA_DIR);
  if (demo) {
    console.log(
      `Demo project ${demo.projectId}\n  Publishable key  ${demo.publishableKey}\n  Private key      ${demo.privateKey}\n` +
        `(kept in ${saved}: every run of the seed prints them again)`,
    );
  } else {
    // Another install's projects, or a demo whose keys file was removed: keys are stored hashed, so only new ones can be shown.
    const { data: projects } = await infra.services.send(IdentityMessages.listProjects, {});
    console.log(
      `A project exists already: nothing seeded. The run that seeds the demo keeps its keys in ${saved}, which is not there; ` +
        'keys are stored only hashed, so make new ones with the admin API ' +
        '(POST /admin/v1/projects/{projectId}/keys, docs/admin-api.md) or the dashboard.\n' +
        projects.map((project) => `  Project ${project.id}  ${project.name}`).join('\n'),
    );
  }
} catch (error) {
  console.error(`seed failed: ${(error as Error).message}`);
  status = 1;
}
await infra.close();
process.exit(status);
