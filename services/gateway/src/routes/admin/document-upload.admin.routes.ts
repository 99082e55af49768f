import fastifyMultipart from '@fastify/multipart';
import { AppError, DocumentRecord, SearchMessages, UPLOAD_MAX_BYTES, UploadDocumentBody } from '@palaver/contracts';
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway.deps';
import { parse } from '../../http/parse';
import type { AdminRoutes } from '../../http/routes';
import { created } from '../../openapi/responses';
import { existingProject } from './existing-project';

const UploadFields = UploadDocumentBody.pick({ title: true, url: true });

/** Fastify's multipart errors that are the client's: a part too large, too many parts, not multipart. */
const tooLarge = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * `POST …/documents/upload`: a PDF or DOCX file (multipart field `file`, optional fields `title`
 * and `url`) becomes a document; the search service extracts its text. Multipart is read on the
 * admin routes only.
 */
export const documentUploadAdminRoutes = async (app: FastifyInstance, admin: AdminRoutes, { services }: GatewayDeps): Promise<void> => {
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 4096 } });

  admin.post(
    '/admin/v1/projects/:projectId/documents/upload',
    {
      permission: 'knowledge.write',
      summary:
        'Upload a PDF or DOCX file (multipart/form-data: `file`, optional `title` and `url`, at most 8 MB): its text becomes a document. 415 for another kind of file, 422 for one that cannot be read',
      responses: created('Document', DocumentRecord),
      // A multipart body is read by the handler, after the request's fingerprint would be taken.
      idempotent: false,
    },
    async ({ params, actor, request }) => {
      if (!request.isMultipart()) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send the file as multipart/form-data, in the field "file"');
      }
      let file: { filename: string; contentType: string; data: Buffer } | null = null;
      const fields: Record<string, string> = {};
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const data = await part.toBuffer();
            if (part.fieldname === 'file') file = { filename: part.filename || 'upload', contentType: part.mimetype, data };
          } else if (part.fieldname === 'title' || part.fieldname === 'url') {
            fields[part.fieldname] = String(part.value);
          }
        }
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('PAYLOAD_TOO_LARGE', `the file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB`, {
            limit: UPLOAD_MAX_BYTES,
          });
        }
        if (tooLarge.has(code) || code.startsWith('FST_')) {
          throw new AppError('INVALID_REQUEST_BODY', `invalid multipart body: ${(err as Error).message}`, { field: 'file' });
        }
        throw err;
      }
      if (!file) throw new AppError('INVALID_REQUEST_BODY', 'no file in the field "file"', { field: 'file' });
      const extra = parse(UploadFields, fields, 'body');
      await existingProject(services, params.projectId);
      return services.send(SearchMessages.uploadDocument, {
        projectId: params.projectId,
        actor,
        body: {
          filename: file.filename.slice(0, 255),
          contentType: file.contentType.slice(0, 200),
          data: file.data.toString('base64'),
          ...extra,
        },
      });
    },
  );
};
