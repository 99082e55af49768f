import type { DocumentBody, QnaBody } from '@palaver/contracts';

export const DEMO_QNAS: QnaBody[] = [
  {
    question: 'What are your opening hours?',
    answer: 'Our shop and support line are open Monday to Friday, 9:00 to 18:00, and Saturday 10:00 to 14:00 (CET).',
  },
  {
    question: 'How long does shipping take?',
    answer: 'Orders ship within one business day; delivery takes 2 to 4 business days in the EU.',
  },
  {
    question: 'How do I return an item?',
    answer: 'You can return any item within 30 days: open your order, choose "Return", and print the free label.',
  },
];

export const DEMO_DOCUMENTS: DocumentBody[] = [
  {
    title: 'Warranty',
    url: 'https://demo-shop.example/help/warranty',
    content:
      '# Warranty\n\nEvery electronic product comes with a two year warranty covering manufacturing defects.\n\n' +
      '## How to claim\n\nContact support with your order number and a short description of the defect. ' +
      'We repair or replace the product free of charge.',
  },
  {
    title: 'Payment methods',
    url: 'https://demo-shop.example/help/payment',
    content: '# Payment\n\nWe accept credit cards, PayPal and bank transfer. Invoices are sent by email after shipping.',
  },
  {
    title: 'Aurora X2 Headphones',
    url: 'https://demo-shop.example/products/aurora-x2',
    content: '# Aurora X2 Headphones\n\nWireless noise-cancelling headphones with 30 hours of battery life.',
    productId: 'AX2',
    price: 199,
    currency: 'EUR',
    availability: 'in_stock',
    vendor: 'Aurora',
    productType: 'headphones',
  },
];
