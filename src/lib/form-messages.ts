/** What the forms tell people, word for word from the specification. */
export const NEWSLETTER_SUCCESS = {
  title: 'Subscribed successfully!',
  description: 'Thank you for subscribing to our newsletter.',
} as const;
/** Said after the success toast's description: a new subscriber confirms through an e-mailed link (double opt-in). */
export const NEWSLETTER_CHECK_INBOX = 'Please check your inbox and confirm with the link we sent you.';
export const NEWSLETTER_FAILURE = {
  title: 'Subscription failed',
  description: 'There was an error subscribing to the newsletter. Please try again.',
} as const;
export const GUIDE_SUCCESS = 'Thank you for subscribing! Your guide will be sent to your email.';
export const GUIDE_FAILURE = 'There was an error processing your request. Please try again.';
export const CONTACT_SUCCESS = 'Thank you! Your message is on its way. We reply to every message within 24 hours.';
export const CONTACT_FAILURE = 'There was an error sending your message. Please try again, or write to us by e-mail.';
/** The label of a newsletter button while it submits. */
export const SUBSCRIBING = 'Subscribing...';
