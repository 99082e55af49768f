/**
 * The V8 flags every service process runs with (`pnpm start`, each `start:cluster` process, the
 * containers and the bench's servers; package.json and docker-compose.yml spell them out too).
 * A larger young generation (64 MB semi-spaces, Node 20's default is 16 MB) lets the short-lived
 * objects of a request die in fewer scavenges, so the main thread spends less on the collector
 * per message, for a larger heap under load (docs/architecture.md, "A larger young generation").
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
