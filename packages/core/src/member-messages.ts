import type { Message } from '@council/providers';
import type { ResolvedMember } from './council-member.js';

/** A member's system prompt (when it has one), then the user turn. */
export function memberMessages(member: ResolvedMember, content: string): Message[] {
  const messages: Message[] = member.systemPrompt ? [{ role: 'system', content: member.systemPrompt }] : [];
  messages.push({ role: 'user', content });
  return messages;
}
