import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

/**
 * The Kubernetes manifests (infra/k8s) as a cluster would receive them: rendered by
 * `kubectl kustomize` where kubectl is installed (else each file as written: an overlay's patches
 * then go unchecked, which the run says), every object checked against the Kubernetes schemas
 * (kubernetes-models), and the properties the deployment relies on checked by name.
 */

const K8S = join(import.meta.dirname, '..', 'infra', 'k8s');
const SERVICES = ['gateway', 'identity', 'conversation', 'search', 'inference', 'analytics'];

type Manifest = Record<string, any>;

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

const kubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const yamlObjects = (text: string): Manifest[] =>
  parseAllDocuments(text)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((o): o is Manifest => o !== null);

/** Every file a kustomization lists, recursively, as written (no patches, no generators). */
const filesOf = (dir: string): Manifest[] => {
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
  return kustomization.resources.flatMap((resource) =>
    resource.endsWith('.yaml') ? yamlObjects(readFileSync(join(dir, resource), 'utf8')) : filesOf(join(dir, resource)),
  );
};

const render = (dir: string): Manifest[] => {
  if (kubectl) return yamlObjects(execFileSync('kubectl', ['kustomize', join(K8S, dir)], { encoding: 'utf8' }));
  console.warn(`kubectl is not installed: infra/k8s/${dir} checked file by file, its patches and generators not applied`);
  return filesOf(join(K8S, dir));
};

const ofKind = (objects: Manifest[], kind: string) => objects.filter((o) => o.kind === kind);
const podLabels = (d: Manifest): Record<string, string> => d.spec.template.metadata.labels;
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

for (const dir of ['base', 'overlays/example']) {
  describe(`infra/k8s/${dir}`, () => {
    const objects = render(dir);
    const deployments = ofKind(objects, 'Deployment');
    // The base names the Secret an overlay generates (with a hash suffix that kustomize writes into every reference).
    const secretName = ofKind(objects, 'Secret')[0]?.metadata.name ?? 'palaver-secrets';

    it('holds only objects of known kinds, each valid against the Kubernetes schema', () => {
      expect(objects.length).toBeGreaterThan(10);
      for (const object of objects) {
        const key = `${object.apiVersion}/${object.kind}`;
        if (object.kind === 'Secret') continue; // the overlay's generated secret: data only
        const Model = MODELS[key];
        expect(Model, `no schema for ${key}`).toBeDefined();
        expect(() => new Model!(object as never).validate(), `${key} ${object.metadata?.name}`).not.toThrow();
      }
    });

    it('runs one Deployment per service, from its own built entry point', () => {
      expect(deployments.map((d) => d.metadata.name).sort()).toEqual(SERVICES.map((s) => `palaver-${s}`).sort());
      const build = readFileSync(join(import.meta.dirname, '..', 'scripts', 'build-services.mjs'), 'utf8');
      for (const d of deployments) {
        const [container] = d.spec.template.spec.containers;
        const entry = container.command.at(-1) as string;
        expect(entry).toMatch(/^dist\/[a-z]+\.js$/);
        expect(build, `the build makes ${entry}`).toContain(`${entry.slice(5, -3)}:`);
      }
    });

    it('probes each pod about itself, and runs it non-root, read-only, without capabilities', () => {
      for (const d of deployments) {
        const pod = d.spec.template.spec;
        expect(pod.securityContext.runAsNonRoot, d.metadata.name).toBe(true);
        expect(pod.automountServiceAccountToken).toBe(false);
        for (const c of pod.containers) {
          // The gateway answers its probes on its HTTP port, every other service on its health server.
          const port = c.name === 'gateway' ? { name: 'http', containerPort: 3000 } : { name: 'health', containerPort: 8081 };
          expect(c.ports).toContainEqual(port);
          expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: port.name });
          expect(c.livenessProbe.httpGet).toEqual({ path: '/livez', port: port.name });
          expect(c.securityContext).toMatchObject({
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          });
          expect(c.resources.requests.cpu).toBeDefined();
          expect(c.resources.requests.memory).toBeDefined();
          expect(c.resources.limits.memory).toBeDefined();
          expect(c.envFrom[0].configMapRef.name).toBe('palaver-config');
          expect(c.envFrom[1].secretRef.name).toBe(secretName);
        }
      }
      const config = ofKind(objects, 'ConfigMap').find((c) => c.metadata.name === 'palaver-config');
      expect(config?.data).toMatchObject({ HOST: '0.0.0.0', HEALTH_PORT: '8081' });
    });

    it('autoscales gateway, inference and search, and keeps a disruption budget for every service', () => {
      const names = new Set(deployments.map((d) => d.metadata.name));
      const hpas = ofKind(objects, 'HorizontalPodAutoscaler');
      expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['palaver-gateway', 'palaver-inference', 'palaver-search']);
      for (const h of hpas) expect(names.has(h.spec.scaleTargetRef.name)).toBe(true);
      const budgets = ofKind(objects, 'PodDisruptionBudget');
      for (const d of deployments) {
        const matching = budgets.filter((b) => selects(b.spec.selector.matchLabels, podLabels(d)));
        expect(matching, d.metadata.name).toHaveLength(1);
      }
    });

    it('admits traffic to the gateway only, and routes the Service to the gateway pods', () => {
      const policies = ofKind(objects, 'NetworkPolicy');
      const denyAll = policies.find((p) => p.spec.ingress.length === 0);
      for (const d of deployments) expect(selects(denyAll!.spec.podSelector.matchLabels, podLabels(d)), d.metadata.name).toBe(true);
      const open = policies.filter((p) => p.spec.ingress.length > 0);
      expect(open).toHaveLength(1);
      const opened = deployments.filter((d) => selects(open[0]!.spec.podSelector.matchLabels, podLabels(d)));
      expect(opened.map((d) => d.metadata.name)).toEqual(['palaver-gateway']);
      const [service] = ofKind(objects, 'Service');
      expect(deployments.filter((d) => selects(service!.spec.selector, podLabels(d))).map((d) => d.metadata.name)).toEqual([
        'palaver-gateway',
      ]);
    });
  });
}

describe('infra/k8s/overlays/example', () => {
  // Without kubectl the overlay's patches cannot be applied here; the files themselves are checked above.
  it.skipIf(!kubectl)('sets the image, the namespace and an Ingress to the gateway Service (rendered by kubectl)', () => {
    const objects = render('overlays/example');
    for (const d of ofKind(objects, 'Deployment')) {
      expect(d.metadata.namespace).toBe('palaver');
      expect(d.spec.template.spec.containers[0].image).toBe('registry.example.com/palaver:0.1.0');
    }
    const [ingress] = ofKind(objects, 'Ingress');
    expect(ingress!.spec.rules[0].http.paths[0].backend.service.name).toBe('palaver-gateway');
    expect(ofKind(objects, 'Secret').map((s) => s.metadata.name)[0]).toMatch(/^palaver-secrets-[a-z0-9]+$/);
  });
});
