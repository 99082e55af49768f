import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type CreatedKey, type CreateKeyBody, type KeyInfo, type KeyRecord, type KeyType } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { formatKey, KEY_PREFIX, KEY_RANDOM_BYTES, keyHint, parseKeyType } from '../domain/api-key';
import { admittingEntries, isOriginAllowed, originMatchEntries } from '../domain/origin-policy';
import { hashSecret } from '../domain/secret-hash';
import { IdentityChangesPublisher } from '../publishers/identity-changes.publisher';
import { KeyRepository } from '../repositories/key.repository';
import { AssistantService } from './assistant.service';
import { ProjectService } from './project.service';
import { secureRandomBytes } from './random-bytes';

const invalidKey = (): AppError => new AppError('UNAUTHORIZED', 'API key is invalid or has been revoked');

const wrongKeyType = (required: KeyType): AppError =>
  new AppError(
    'FORBIDDEN',
    `this operation requires a ${required} key (${KEY_PREFIX[required]}...); a ${required === 'private' ? 'publishable' : 'private'} key was given`,
    { requiredKeyType: required },
  );

const originNotAllowed = (origin: string): AppError =>
  new AppError('FORBIDDEN', `origin ${origin} is not allowed for this key`, { origin });

const isLive = (key: KeyRecord): boolean => key.revokedAt === null;

@Injectable()
export class KeyService {
  constructor(
    @Inject(KeyRepository) private readonly keys: KeyRepository,
    @Inject(ProjectService) private readonly projects: ProjectService,
    @Inject(AssistantService) private readonly assistants: AssistantService,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(IdentityChangesPublisher) private readonly changes: IdentityChangesPublisher,
  ) {}

  /**
   * A key is looked up by its SHA-256. A private key exists outside the caller only in this
   * answer; a publishable key is public by design (every page with the widget shows it), so it
   * is also kept whole, for the key list and the dashboard's embed snippet.
   */
  async create(projectId: string, body: CreateKeyBody): Promise<CreatedKey> {
    await this.projects.get(projectId);
    if (body.type === 'publishable') await this.assistants.get(projectId, body.assistantId);
    const key = formatKey(body.type, secureRandomBytes(KEY_RANDOM_BYTES));
    const allowedOrigins = body.type === 'publishable' ? body.allowedOrigins : [];
    const record: KeyRecord = {
      id: randomUUID(),
      projectId,
      type: body.type,
      name: body.name,
      assistantId: body.type === 'publishable' ? body.assistantId : null,
      allowedOrigins,
      hint: keyHint(key),
      createdAt: this.clock.now().toISOString(),
      revokedAt: null,
      ...(body.type === 'publishable' ? { key } : {}),
    };
    await this.keys.insert(record, hashSecret(key), body.type === 'publishable' ? originMatchEntries(allowedOrigins) : []);
    await this.changes.announce({ kind: 'key-created', projectId, keyId: record.id });
    return { ...record, key };
  }

  async list(projectId: string): Promise<KeyRecord[]> {
    await this.projects.get(projectId);
    return this.keys.listByProject(projectId);
  }

  /** Idempotent: revoking a revoked key answers it with its first revocation time. */
  async revoke(projectId: string, keyId: string): Promise<KeyRecord> {
    const revoked = await this.keys.revoke(projectId, keyId, this.clock.now().toISOString());
    if (!revoked) throw new AppError('KEY_NOT_FOUND', `key ${keyId} not found`, { keyId });
    await this.changes.announce({ kind: 'key-revoked', projectId, keyId });
    return revoked;
  }

  /** Revokes every live key of a project, each announced as a single revocation is. */
  async revokeAll(projectId: string): Promise<void> {
    for (const keyId of await this.keys.liveIds(projectId)) await this.revoke(projectId, keyId);
  }

  /**
   * The project behind a key used for an operation that needs `type`. A publishable key with
   * allowed origins rejects a browser request from elsewhere; a call without an origin passes.
   */
  async resolve(key: string, origin: string | null, type: KeyType): Promise<KeyInfo> {
    const record = await this.findLive(key);
    if (!record) throw invalidKey();
    if (record.type !== type) throw wrongKeyType(type);
    if (!isOriginAllowed(record.allowedOrigins, origin)) throw originNotAllowed(origin ?? '');
    return { projectId: record.projectId, keyId: record.id, type: record.type, assistantId: record.assistantId };
  }

  /** Checks, on every use of a session, that the key it was made with is still live and accepts the origin. */
  async assertSessionKey(projectId: string, keyId: string, origin: string | null): Promise<void> {
    const record = await this.keys.findById(projectId, keyId);
    if (!record || !isLive(record)) {
      throw new AppError('UNAUTHORIZED', 'the key this session was created with has been revoked');
    }
    if (!isOriginAllowed(record.allowedOrigins, origin)) throw originNotAllowed(origin ?? '');
  }

  /** For CORS preflight: the given live publishable key's verdict, else whether any live publishable key admits the origin. */
  async isOriginAllowed(origin: string, apiKey: string | null): Promise<boolean> {
    const record = apiKey === null ? null : await this.findLive(apiKey);
    if (record?.type === 'publishable') return isOriginAllowed(record.allowedOrigins, origin);
    return this.keys.anyLivePublishableMatching(admittingEntries(origin));
  }

  private async findLive(key: string): Promise<KeyRecord | null> {
    if (parseKeyType(key) === null) return null;
    const record = await this.keys.findByHash(hashSecret(key));
    return record && isLive(record) ? record : null;
  }
}
