import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type ChatMessage,
  HANDOFF_TOOL,
  type PageContext,
  type Retrieval,
  type RetrievedQna,
  replyRetrievalRequest,
  SearchMessages,
} from '@palaver/contracts';
import { type ChatRequest, lastUserMessage, logger, Ports, type ServiceClient } from '@palaver/platform';
import { buildPrompt } from '../domain/prompt.builder';
import { overridingQna } from '../domain/qna-override';
import { AssistantCache } from '../repositories/assistant-cache';

export interface ReplyPromptInput {
  projectId: string;
  assistantId: string | null;
  /** Oldest first, ending with the message to answer. */
  history: ChatMessage[];
  pageContext: PageContext | null;
  /** Offer the model the handoff tool. */
  handoffTool?: boolean;
  /** What search returned for the question, when conversation already asked (GenerateReplyJob.knowledge). */
  knowledge?: Retrieval;
}

/** The chat request of one reply: the assistant, the knowledge retrieved for the question, the prompt. */
@Injectable()
export class ReplyPromptService {
  constructor(
    @Inject(Ports.services) private readonly services: ServiceClient,
    @Inject(AssistantCache) private readonly assistants: AssistantCache,
  ) {}

  async prepare(input: ReplyPromptInput): Promise<ChatRequest> {
    const question = lastUserMessage(input.history)?.trim();
    if (!question) throw new AppError('VALIDATION_ERROR', 'there is no user message to answer');
    const [assistant, knowledge] = await Promise.all([
      this.assistants.get(input.projectId, input.assistantId),
      input.knowledge ?? this.retrieve(input.projectId, question),
    ]);
    const prompt = buildPrompt({
      instructions: assistant.instructions,
      pageContext: input.pageContext,
      knowledge,
      history: input.history,
    });
    return {
      model: assistant.model ?? null,
      messages: prompt.messages,
      grounding: prompt.knowledge,
      ...(input.handoffTool ? { tools: [{ ...HANDOFF_TOOL }] } : {}),
    };
  }

  /**
   * The Q&A entry to answer with verbatim, without the model (see `overridingQna`), or null. When
   * identity cannot say whether the project wants it, the model answers.
   */
  async verbatimAnswer(projectId: string, knowledge: Retrieval): Promise<RetrievedQna | null> {
    if (knowledge.qnas.length === 0) return null;
    try {
      return overridingQna(knowledge, await this.assistants.qnaOverride(projectId));
    } catch (err) {
      logger.warn({ err, projectId }, "could not read the project's Q&A override; the model answers");
      return null;
    }
  }

  /** Without the search service the reply still goes ahead, ungrounded: the rules make the model say it does not know. */
  private async retrieve(projectId: string, question: string): Promise<Retrieval> {
    try {
      return await this.services.send(SearchMessages.retrieve, replyRetrievalRequest(projectId, question));
    } catch (err) {
      logger.warn({ err, projectId }, 'retrieval failed; replying without knowledge');
      return { qnas: [], chunks: [] };
    }
  }
}
