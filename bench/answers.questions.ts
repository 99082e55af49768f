/**
 * Questions over the demo content (packages/launcher/src/demo.content.ts), written for the
 * answer benchmark: paraphrases of what the content answers, each with where the answer must
 * come from (a Q&A entry by its question, or a document by its title), and questions the
 * content does not answer (`from: null`: the responder must say it does not know).
 */
export interface AnswerCase {
  question: string;
  from: { qna: string } | { document: string } | null;
}

const HOURS = { qna: 'What are your opening hours?' };
const SHIPPING = { qna: 'How long does shipping take?' };
const RETURNS = { qna: 'How do I return an item?' };
const WARRANTY = { document: 'Warranty' };
const PAYMENT = { document: 'Payment methods' };
const AURORA = { document: 'Aurora X2 Headphones' };

export const ANSWER_CASES: AnswerCase[] = [
  { question: 'When are you open?', from: HOURS },
  { question: 'What time do you open on Saturday?', from: HOURS },
  { question: 'Are you open on weekends?', from: HOURS },
  { question: 'What are your business hours?', from: HOURS },
  { question: 'When can I call the support line?', from: HOURS },

  { question: 'How long does delivery take?', from: SHIPPING },
  { question: 'When will my order arrive?', from: SHIPPING },
  { question: 'How fast do you ship?', from: SHIPPING },
  { question: 'How many days until my parcel is delivered?', from: SHIPPING },
  { question: 'How quickly will I receive my package?', from: SHIPPING },

  { question: 'Can I send an item back?', from: RETURNS },
  { question: 'How do I get a refund?', from: RETURNS },
  { question: 'What is your return policy?', from: RETURNS },
  { question: 'Can I return a product I bought last week?', from: RETURNS },
  { question: 'I want to send my order back, what do I do?', from: RETURNS },

  { question: 'How long is the guarantee on electronics?', from: WARRANTY },
  { question: 'Is there a warranty on your products?', from: WARRANTY },
  { question: 'My device is faulty, will you repair it for free?', from: WARRANTY },
  { question: 'How do I make a warranty claim?', from: WARRANTY },
  { question: 'What is the warranty on the Aurora X2 headphones?', from: WARRANTY },
  { question: 'Do the Aurora X2 headphones have a guarantee?', from: WARRANTY },
  { question: 'What does the warranty cover?', from: WARRANTY },

  { question: 'How can I pay?', from: PAYMENT },
  { question: 'What payment methods do you accept?', from: PAYMENT },
  { question: 'Can I pay with PayPal?', from: PAYMENT },
  { question: 'Do you take credit cards?', from: PAYMENT },
  { question: 'Is bank transfer possible?', from: PAYMENT },
  { question: 'When do I receive the invoice?', from: PAYMENT },

  { question: 'How long does the battery of the Aurora X2 last?', from: AURORA },
  { question: 'Are the Aurora X2 headphones wireless?', from: AURORA },
  { question: 'Do the Aurora X2 cancel noise?', from: AURORA },
  { question: 'Tell me about the Aurora X2 headphones', from: AURORA },

  { question: 'Do you sell garden gnomes made of marble?', from: null },
  { question: 'Can I pick up my order at your store in Berlin?', from: null },
  { question: 'Do you offer gift cards?', from: null },
  { question: 'Is there a student discount?', from: null },
  { question: 'Do you sell laptops?', from: null },
  { question: 'What will the weather be like tomorrow?', from: null },
  { question: 'Who is the CEO of your company?', from: null },
  { question: 'Is my personal data shared with third parties?', from: null },
  { question: 'Can I adopt a cat from you?', from: null },
  { question: 'Do you have a loyalty program?', from: null },
];
