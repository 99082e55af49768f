import type { DocumentBody } from '@palaver/contracts';

/**
 * A bike shop's website as the HTML import writes it (packages/cli/src/html-text.ts): headings
 * and FAQ questions are lines of their own, not markdown. Held out from the responder's tuning
 * (the demo content is what it was tuned on), so the answer bench and the responder's e2e test
 * see content written in another style.
 */
export const BIKE_SHOP_DOCUMENTS: DocumentBody[] = [
  {
    title: 'Delivery',
    url: 'https://bikes.example/help/delivery',
    content: [
      'Delivery and click-and-collect',
      'How long does delivery take?',
      'Orders placed before 2 pm leave our workshop the same day and arrive within 2 to 3 working days in Germany.',
      'What does delivery cost?',
      'Delivery is free for orders over 100 euros; below that it costs 9.90 euros.',
      'Can I collect my bike in the shop?',
      'Yes, click-and-collect is free: pick your bike up at our Hamburg workshop from the next working day.',
    ].join('\n\n'),
  },
  {
    title: 'Refurbished bikes',
    url: 'https://bikes.example/refurbished',
    content: [
      'Refurbished bikes',
      'We sell refurbished city bikes, road bikes and e-bikes, each one checked and serviced in our workshop.',
      'Every refurbished bike comes with a 12 month warranty on the frame and the gears.',
    ].join('\n\n'),
  },
  {
    title: 'Returns',
    url: 'https://bikes.example/help/returns',
    content: [
      'Returns',
      'How do I return a bike?',
      'Unused bikes can be returned within 30 days: book a free pickup in your account and we refund you within 5 working days of receiving it.',
    ].join('\n\n'),
  },
];

export interface BikeShopCase {
  question: string;
  /** The document that answers it, by title, and a phrase the answer must hold; null: to be declined. */
  from: { document: string; says: string } | null;
}

export const BIKE_SHOP_CASES: BikeShopCase[] = [
  { question: 'How long does delivery take?', from: { document: 'Delivery', says: 'within 2 to 3 working days' } },
  { question: 'What does delivery cost?', from: { document: 'Delivery', says: 'free for orders over 100 euros' } },
  { question: 'Can I pick up my bike in the shop?', from: { document: 'Delivery', says: 'Hamburg workshop' } },
  { question: 'Do you sell e-bikes?', from: { document: 'Refurbished bikes', says: 'e-bikes' } },
  { question: 'Is there a warranty on refurbished bikes?', from: { document: 'Refurbished bikes', says: '12 month warranty' } },
  { question: 'How do I return a bike?', from: { document: 'Returns', says: 'within 30 days' } },
  { question: 'Do you sell skateboards?', from: null },
  { question: 'Do you ship to Japan?', from: null },
  { question: 'Do you sell scooters?', from: null },
  { question: 'Do you deliver to Canada?', from: null },
  { question: 'Can I rent a bike for a weekend?', from: null },
];
