import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { InboxMessages as M } from '@palaver/contracts';
import { handle } from '@palaver/platform';
import { AgentNoteService } from '../services/agent-note.service';
import { VisitorContextService } from '../services/visitor-context.service';

/** The inbox's reads and writes beside the handoff: internal notes and the visitor panel. */
@Controller()
export class InboxHandler {
  constructor(
    @Inject(AgentNoteService) private readonly notes: AgentNoteService,
    @Inject(VisitorContextService) private readonly visitors: VisitorContextService,
  ) {}

  @MessagePattern(M.addNote.subject)
  addNote(@Payload() raw: unknown) {
    return handle(M.addNote, raw, (req) => this.notes.add(req));
  }

  @MessagePattern(M.listNotes.subject)
  listNotes(@Payload() raw: unknown) {
    return handle(M.listNotes, raw, (req) => this.notes.list(req));
  }

  @MessagePattern(M.visitorContext.subject)
  visitorContext(@Payload() raw: unknown) {
    return handle(M.visitorContext, raw, (req) => this.visitors.of(req));
  }
}
