/** The parts of a V8 `.cpuprofile` (the inspector's `Profiler.stop`, or `node --cpu-prof`) this reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  samples: number[];
}

/** Where a frame's code comes from: a file of ours (`packages/…`, `services/…`), else null. */
export type SourceOf = (url: string, lineNumber: number, columnNumber: number) => string | null;

export interface Share {
  /** An owner, or a function with its owner in brackets. */
  name: string;
  /** Of the busy samples (idle ones are left out). */
  share: number;
}

export interface Attribution {
  busySamples: number;
  owners: Share[];
  /** The functions samples stopped in (self time), with the owner they were counted for. */
  functions: Share[];
}

const PACKAGE_IN_NODE_MODULES = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//;

/** `bullmq`, `@nestjs/core`: the package a file under node_modules belongs to (the last one, for pnpm's layout). */
const packageOf = (url: string): string | null => {
  const index = url.lastIndexOf('node_modules/');
  if (index < 0) return null;
  return PACKAGE_IN_NODE_MODULES.exec(url.slice(index))?.[1] ?? null;
};

/** Our code grouped by service, or by the platform's port (`packages/platform/document-store`). */
const ownGroup = (source: string): string => {
  const parts = source.split('/');
  if (parts[0] === 'packages' && parts[1] === 'platform' && parts[2] === 'src' && parts.length > 4) return `packages/platform/${parts[3]}`;
  return parts.slice(0, 2).join('/');
};

/** `node:net`, `node:streams`: Node's own module of a frame (its `internal/` folder left out). */
const nodeModuleOf = (url: string): string =>
  `node:${
    url
      .slice('node:'.length)
      .replace(/^internal\//, '')
      .split('/')[0]
  }`;

/**
 * What each sample of the main thread was spent on, by owner. Walking from the sample's function
 * toward the root, the first frame of our code owns it, unless third-party code ran beneath that
 * frame: then the outermost such package does (`bullmq` holds the ioredis and socket time of its
 * scripts, `nats` its parsing and writes), and so does a package's code that no code of ours
 * called (a client reading its socket). Below our code, Node's own code alone is `node:<module>`
 * (its sockets, streams, timers), and V8's pseudo-frames stay what they are: `(garbage
 * collector)`, `(program)` (the VM's own work).
 */
export const attribute = (profile: CpuProfile, sourceOf: SourceOf, topFunctions = 15): Attribution => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const ownerOfNode = new Map<number, string>();
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  const ownerOf = (leafId: number): string => {
    const cached = ownerOfNode.get(leafId);
    if (cached !== undefined) return cached;
    let library: string | null = null;
    let owner: string | null = null;
    for (let id: number | undefined = leafId; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)!.callFrame;
      const source = frame.url ? sourceOf(frame.url, frame.lineNumber, frame.columnNumber) : null;
      if (source !== null) {
        owner = library ?? ownGroup(source);
        break;
      }
      const pkg = packageOf(frame.url);
      if (pkg !== null) library = pkg;
      else if (library === null && frame.url.startsWith('node:')) library = nodeModuleOf(frame.url);
    }
    const leaf = byId.get(leafId)!.callFrame;
    const result = owner ?? library ?? (leaf.functionName || '(anonymous native)');
    ownerOfNode.set(leafId, result);
    return result;
  };
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') continue;
    busy++;
    const owner = ownerOf(id);
    owners.set(owner, (owners.get(owner) ?? 0) + 1);
    const name = `${frame.functionName || '(anonymous)'} [${owner}]`;
    functions.set(name, (functions.get(name) ?? 0) + 1);
  }
  const shares = (counts: Map<string, number>): Share[] =>
    [...counts].map(([name, n]) => ({ name, share: busy === 0 ? 0 : n / busy })).sort((a, b) => b.share - a.share);
  return { busySamples: busy, owners: shares(owners), functions: shares(functions).slice(0, topFunctions) };
};

/**
 * Owners whose share is below `minShare` folded into one line each of ours, third-party and the
 * runtime, so a flat profile still prints in a screenful.
 */
export const foldSmall = (owners: Share[], minShare: number): Share[] => {
  const kept = owners.filter((o) => o.share >= minShare);
  const rest = new Map<string, number>();
  for (const o of owners) {
    if (o.share >= minShare) continue;
    const kind = /^(packages|services|bench)\//.test(o.name)
      ? 'the rest of our code'
      : o.name.startsWith('(') || o.name.startsWith('node:')
        ? 'the rest of the runtime'
        : 'the rest of the libraries';
    rest.set(kind, (rest.get(kind) ?? 0) + o.share);
  }
  return [...kept, ...[...rest].map(([name, share]) => ({ name, share }))];
};
