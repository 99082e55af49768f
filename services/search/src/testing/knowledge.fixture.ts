import type { DocumentBody } from '@palaver/contracts';

/** A small shop's knowledge base, for tests: each page answers questions asked in other words. */
export const FIXTURE_PAGES = {
  shipping: {
    title: 'Shipping',
    url: 'https://shop.example.com/help/shipping',
    content: [
      '# Shipping',
      '## Delivery times',
      'Orders placed before 2pm leave our warehouse the same day. Standard delivery within France takes 2 to 4',
      'business days; international parcels take 5 to 10 business days.',
      '## Costs',
      'Shipping is free for orders above 50 EUR. Below that amount a flat fee of 4.90 EUR applies.',
    ].join('\n'),
  },
  returns: {
    title: 'Returns and refunds',
    url: 'https://shop.example.com/help/returns',
    content: [
      '# Returns and refunds',
      'You may send back any unused item within 30 days of receipt. Print the prepaid label from your account,',
      'pack the item in its original box and drop it at any post office.',
      '',
      'Once the parcel reaches us, the refund is credited to your original payment method within 5 business days.',
    ].join('\n'),
  },
  warranty: {
    title: 'Warranty',
    url: 'https://shop.example.com/help/warranty',
    content: [
      '# Warranty',
      'Every device we sell comes with a two year warranty covering manufacturing defects.',
      'Accidental damage, water damage and normal wear are not covered. To make a claim, contact our support',
      'team with your order number and a short description of the fault.',
    ].join('\n'),
  },
  hours: {
    title: 'Visit our store',
    url: 'https://shop.example.com/stores/lyon',
    content: [
      '# Visit our store in Lyon',
      'Our Lyon store is open Monday to Saturday from 9am to 7pm. We are closed on Sundays and public holidays.',
      'You will find us at 12 rue de la République, next to the metro station.',
    ].join('\n'),
  },
  privacy: {
    title: 'Privacy policy',
    url: 'https://shop.example.com/legal/privacy',
    content: [
      '# Privacy policy',
      'We keep your name, e-mail and postal details only to process your orders. We never sell personal data',
      'to third parties, and you may ask us to erase your account at any time.',
    ].join('\n'),
  },
  product: {
    title: 'Aurora X2 wireless headphones',
    url: 'https://shop.example.com/products/aurora-x2',
    content: [
      'Aurora X2 wireless headphones: over-ear design, active noise cancelling and 30 hours of battery life.',
      'Bluetooth 5.3, foldable, with a carrying case.',
    ].join('\n'),
    productId: 'AUR-X2',
    price: 199,
    currency: 'EUR',
    availability: 'in_stock',
    vendor: 'Aurora',
    productType: 'headphones',
    imageUrl: 'https://shop.example.com/img/aurora-x2.jpg',
  },
} satisfies Record<string, DocumentBody>;

export type FixturePage = keyof typeof FIXTURE_PAGES;

/** Questions in other words than their page, each with the page that answers it. */
export const PARAPHRASED_QUESTIONS: Array<[question: string, page: FixturePage]> = [
  ['how long is the guarantee on electronics', 'warranty'],
  ['my headset is broken, is that covered?', 'warranty'],
  ['when will my order be delivered', 'shipping'],
  ['is delivery free?', 'shipping'],
  ['can I get my money back', 'returns'],
  ['what time do you open on saturday', 'hours'],
  ['how much do the Aurora headphones cost', 'product'],
  ['do you sell my personal information', 'privacy'],
];
