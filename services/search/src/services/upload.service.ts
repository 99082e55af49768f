import { Inject, Injectable } from '@nestjs/common';
import { AppError, type DocumentRecord, type UploadDocumentBody } from '@palaver/contracts';
import { contentKind, extractContent, UnreadableContentError } from '../domain/document-extract';
import { DocumentService } from './document.service';

const MAX_TITLE = 500;
const MAX_CONTENT = 2_000_000;

/** Uploaded PDF and DOCX files: their text becomes a document (as one crawled from a site). */
@Injectable()
export class UploadService {
  constructor(@Inject(DocumentService) private readonly documents: DocumentService) {}

  async upload(projectId: string, body: UploadDocumentBody, documentId?: string): Promise<DocumentRecord> {
    const bytes = Buffer.from(body.data, 'base64');
    const url = body.url ?? `file:///${encodeURIComponent(body.filename)}`;
    const kind = contentKind(body.contentType, bytes, `file:///${encodeURIComponent(body.filename)}`);
    if (kind !== 'pdf' && kind !== 'docx') {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'only PDF and DOCX files can be uploaded', {
        filename: body.filename,
        contentType: body.contentType,
      });
    }
    let extracted: Awaited<ReturnType<typeof extractContent>>;
    try {
      extracted = await extractContent(kind, bytes, `file:///${encodeURIComponent(body.filename)}`);
    } catch (err) {
      if (err instanceof UnreadableContentError) {
        throw new AppError('VALIDATION_ERROR', `the file cannot be read (${err.message})`, { field: 'file', filename: body.filename });
      }
      throw err;
    }
    const content = extracted.text.trim().slice(0, MAX_CONTENT);
    if (!content) {
      throw new AppError('VALIDATION_ERROR', 'the file has no text to index (a scanned PDF needs OCR first)', {
        field: 'file',
        filename: body.filename,
      });
    }
    return this.documents.create(
      projectId,
      {
        title: (body.title ?? (extracted.title || body.filename)).slice(0, MAX_TITLE),
        url,
        content,
      },
      documentId,
    );
  }
}
