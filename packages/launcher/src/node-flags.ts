/**
 * The V8 flags every service process runs with (`pnpm start`, each `start:cluster` process, the
 * containers and the bench's servers; package.json and docker-compose.yml spell them out too).
 * A larger young generation (64 MB semi-spaces, Node 20's default is 16 MB) lets the short-lived
 * objects of a request die in fewer scavenges: with 100 conversations sending at once, the
 * distributed product answered 23-24 % more messages a second at 16-18 % less CPU on its main
 * thread in alternating runs (docs/performance.md, 2026-11-27), for a heap up to about 100 MB
 * larger under load.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
