import type { Conversation, ConversationLiveEvent, HumanAgent } from '@palaver/contracts';
import type { OwnFeedback } from './own-feedback';
import { fromStored, type Handoff, handoffOf, joinedNote, merged, type SessionState, type VisitorRating } from './session-state';

/** The change of who answers; a release by a person lets the visitor rate the conversation. */
export const handoffPatch = (state: SessionState, handoff: Handoff, humanAgent: HumanAgent | null): Partial<SessionState> => {
  const patch: Partial<SessionState> = { handoff, humanAgent };
  if (handoff !== 'none') patch.released = false;
  else if (state.handoff !== 'none') patch.released = true;
  return patch;
};

export interface ConversationContext {
  feedback: OwnFeedback;
  /** The rating kept for a conversation. */
  storedRating: (conversationId: string) => VisitorRating | null;
  /** Whether the conversation is polled (no live events): a claim is then seen only as a change of state. */
  polled: boolean;
  now: Date;
}

/** The server's view of the conversation (status, agent, messages) as a change of state; null when nothing changed. */
export const conversationPatch = (
  state: SessionState,
  conversation: Conversation,
  context: ConversationContext,
): Partial<SessionState> | null => {
  const byId = new Map(state.messages.filter((m) => m.id).map((m) => [m.id, m]));
  const messages = (conversation.messages ?? []).map((stored) => {
    const known = byId.get(stored.id);
    return context.feedback.over(known ? merged(stored, known) : fromStored(stored));
  });
  const sameMessages =
    messages.length === state.messages.length &&
    messages.every(
      (m, i) => m.id === state.messages[i]?.id && m.text === state.messages[i]?.text && m.feedback === state.messages[i]?.feedback,
    );
  const { handoff, humanAgent } = handoffOf(conversation);
  const closed = conversation.status === 'closed';
  const contact = conversation.contact?.email ?? state.contact;
  if (
    sameMessages &&
    closed === state.closed &&
    contact === state.contact &&
    handoff === state.handoff &&
    JSON.stringify(humanAgent) === JSON.stringify(state.humanAgent)
  )
    return null;
  const patch: Partial<SessionState> = {
    conversationId: conversation.id,
    ...(conversation.id !== state.conversationId || !state.rating ? { rating: context.storedRating(conversation.id) } : {}),
    closed,
    contact,
    messages: sameMessages ? state.messages : messages,
    ...handoffPatch(state, handoff, humanAgent),
  };
  // Polled (no live events): the claim is seen only as a change of state, placed now.
  if (context.polled && handoff === 'claimed' && state.handoff !== 'claimed' && state.conversationId === conversation.id)
    patch.notes = [...state.notes, joinedNote(`joined-${context.now.getTime()}`, humanAgent, context.now.toISOString())];
  return patch;
};

/** A live event of the open conversation as a change of state; null when it is another conversation's. */
export const eventPatch = (state: SessionState, event: ConversationLiveEvent, feedback: OwnFeedback): Partial<SessionState> | null => {
  if (event.conversation.id !== state.conversationId) return null;
  const { conversation, message } = event;
  const { handoff, humanAgent } = handoffOf(conversation);
  const patch: Partial<SessionState> = { closed: conversation.status === 'closed' };
  if (handoff !== state.handoff || JSON.stringify(humanAgent) !== JSON.stringify(state.humanAgent))
    Object.assign(patch, handoffPatch(state, handoff, humanAgent));
  // The history comes first on a new stream, so a claim made before the page loaded is shown too.
  if (event.type === 'handoff.claimed' && !state.notes.some((note) => note.key === `joined-${event.id}`))
    patch.notes = [...state.notes, joinedNote(`joined-${event.id}`, humanAgent, event.occurredAt)];
  if (event.type === 'handoff.released') patch.released = true;
  // The agent's message is what they were typing; a person who left or a closed conversation types no more.
  if (state.agentTyping && (handoff !== 'claimed' || patch.closed || (event.type === 'message.created' && message?.role === 'human_agent')))
    patch.agentTyping = null;
  if (message) {
    const messages = [...state.messages];
    const byId = messages.findIndex((known) => known.id === message.id);
    // The visitor's own message, shown before the server named it.
    const pending = messages.findIndex(
      (known) => known.id === null && known.role === message.role && message.role === 'user' && known.text === fromStored(message).text,
    );
    // The reply this widget waits for (its typing dots), before its stream named it: the live
    // event can come first (another connection). A finished reply fills it, and the stream,
    // when it comes, leaves the stored text as it is.
    const ownReply =
      message.role === 'assistant'
        ? messages.findIndex((known) => known.id === null && known.role === 'assistant' && known.status === 'streaming')
        : -1;
    const streaming = messages.some((known) => known.id === message.id && known.status === 'streaming');
    if (byId >= 0 && !streaming) messages[byId] = feedback.over(merged(message, messages[byId]!));
    else if (byId < 0 && pending >= 0) messages[pending] = feedback.over(merged(message, messages[pending]!));
    else if (byId < 0 && ownReply >= 0)
      messages[ownReply] =
        message.status === 'streaming' ? { ...messages[ownReply]!, id: message.id } : feedback.over(merged(message, messages[ownReply]!));
    else if (byId < 0 && !(message.role === 'assistant' && message.status === 'streaming'))
      messages.push(feedback.over(fromStored(message)));
    patch.messages = messages;
  }
  return patch;
};
