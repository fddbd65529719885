/** What a screenshot may be asked for, wherever it is asked (the screenshot format, the screenshot action, the browser service's /render). */

/** JPEG quality; a PNG without it. */
export const screenshotQualitySchema = { type: 'integer', minimum: 1, maximum: 100 } as const;

/** A browser window size, in CSS pixels. */
export const viewportSchema = {
  type: 'object',
  properties: { width: { type: 'integer', minimum: 100, maximum: 4000 }, height: { type: 'integer', minimum: 100, maximum: 4000 } },
  required: ['width', 'height'],
  additionalProperties: false,
} as const;
