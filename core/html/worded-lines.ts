/**
 * Short lines of the content root that are furniture by their wording (main-content.ts step 4):
 * credits, bylines, datelines, sources, prompts, disclosures, notices. Lines as in lines.ts.
 */
import { type StatsMap } from './content-score.js';
import { ancestorWithTag, findDescendant, linkTextOf, visibleTextLength, walkElements, wrapNodes } from './dom.js';
import { breakRuns } from './lines.js';
import { isDataTable } from './markdown-tables.js';

const COMMA = /[,\uff0c\u3001\u060c]/;

/** Characters at most of a line judged by its wording. */
const WORDED_LINE = 150;
/** Code in a line ("channel.subscribe(onMessage)", "sources: <string[]>"): an API's, not furniture, whatever its words. */
const CODE_LIKE = /\w\(|[{}<>=]/u;

/**
 * Each list as one pattern (the same matches: every part has the flags `iu` and no backreference):
 * one pass over a line instead of one a pattern, on every short line of every page.
 */
const oneOf = (patterns: readonly RegExp[]): RegExp => new RegExp(patterns.map((re) => `(?:${re.source})`).join('|'), 'iu');

/** Whole lines that are furniture by their wording: credits, author boxes, prompts. */
const FURNITURE_LINES = [
  // Picture credits and sources: "Foto: dpa", "Titelbild: ...", "© AFP", "Photograph: Jane Doe/Reuters".
  /^(?:fotos?|bild(?:er)?|titelbild|beitragsbild|bildquelle|quelle|photos?|photograph|image|credits?|fuente|źródło|crédits?|copyright|©)\s*[:©|]/iu,
  // "Photo by Jane Doe on Unsplash", "Image courtesy of the museum", and an agency alone or with its
  // photographer: "Getty Images / Holger Leue", "AP Photo/Jane Doe", "Reuters".
  /^(?:photo(?:graph)?|image|picture|illustration)s? (?:by|courtesy(?: of)?|via|credit)\b[^.!?]{0,60}$/iu,
  /^(?:getty images|shutterstock|istock(?:photo)?|alamy|unsplash|pexels|adobe stock|ap photo|reuters|afp|dpa|epa)(?:\s*(?:[/|:,]|via)\s*[^.!?]{0,50})?$/iu,
  // The story's source: "Article from: Agence France-Presse", "Source: The Associated Press".
  /^(?:(?:article|story|report) (?:from|by|courtesy of)|sources?)\s*:\s*[^.!?:]{2,50}$/iu,
  // Prompts to open a picture: "Press enter or click to view image in full size", "Click to enlarge", "View larger image".
  /^(?:press enter or )?(?:click|tap)(?: (?:on )?(?:the |an )?(?:image|photo|picture))? to (?:view|enlarge|expand|zoom)\b[^.!?]{0,40}$/iu,
  /^(?:view|see|show) (?:a )?(?:larger|bigger|full[- ]size|enlarged|high[- ]resolution) (?:image|photo|picture|version)s?$/iu,
  // Author boxes: "Über den Autor", "About the author", "Von:".
  /^(?:über (?:den|die) autor(?:in)?|about the author|von|autor(?:in|en)?|by)\s*:?$/iu,
  // Share prompts and labels left of a share bar: "Möchten Sie den Artikel teilen?", "Share this article", "Share:", "Teilen".
  /^(?:share (?:this|the) (?:article|story|post)|.{0,40}\bteilen\?)$/iu,
  /^(?:share(?: this| on| via)?|teilen|compartir|partager|condividi)\s*:?$/iu,
  // Advertising labels: "Anzeige", "*Werbung. Dieser Beitrag …", "Sponsored by Acme", "Sponsored
  // results"; not a sentence that opens with the word ("Sponsored athletes earn more than ever").
  /^\W*(?:anzeige|werbung|advertisement|sponsored|publicidad)(?:\W*$|\s*[-–—:|.,*)\]]|\s+(?:by|von|content|posts?|links?|results?|stories|listings?)\b)/iu,
  // A post's actions, a line of their own: "Reply Quote Like", "Improve this answer", "Reply with quote", "3 likes".
  /^(?:(?:reply(?: with quote)?|post reply|quote|multi-?quote|like|report|permalink|improve this (?:answer|question))\s*[|·•]?\s*)+$/iu,
  /^\d+ likes?$/iu,
  // Controls worded as such, a line of their own: "See more", "View all ›", "Back to top", "Click to expand", "Sort by:".
  /^(?:(?:see|view|show|load) (?:more|less|all)|back to (?:the )?top|click to expand|download now|sort(?:ed)? by)\s*[.:›»>+…]*$/iu,
  // A question-and-answer or forum platform's own prompts: "Ask question", "Start asking to get answers",
  // "Explore related questions", "You must log in to answer this question.", "Not open for further replies."
  /^(?:ask (?:a )?question|start asking to get answers|find the answer to your question by asking|explore related questions|see similar questions with these tags|you must (?:log|sign) in(?: or register)? to (?:answer|reply|post)\b[^.!?]{0,40}|not open for further replies)\s*[.!]?$/iu,
  // Sign-in prompts, not a sentence that tells how (those end with a full stop): "Sign in to add this item
  // to your wishlist", "Create an account or sign in to comment", "Already have an account? Log in".
  /^(?:create an account (?:or|and) )?(?:sign[- ]?in (?:to|for) [^.!?]{1,80}|log[- ]?in to (?:comment|reply|post|vote|continue|view|see)\b[^.!?]{0,40})$/iu,
  /^already have an account\?\s*(?:sign|log)[- ]?in\b[^.!?]{0,30}[.!]?$/iu,
  // An edit's note under a post or a page: "Last edited: Sep 6, 2022", "Last edited by Minoa on Tue Aug 27,
  // 2019 10:03 pm, edited 1 time in total.", "This page was last modified on Aug 20, 2025 by MDN contributors."
  /^(?:last (?:edited|modified)\b|this page was last (?:modified|edited|updated)\b)[^!?]{0,100}$/iu,
  // A forum's lines beside each post: its edit note ("Edited August 26 by Joe Root"; not a credit, "Edited & fact-checked by …"),
  // reactions ("Reactions: ruuke and bud16415"), number ("#23 · Sep 22, 2024"), subject ("Re: Turning off all LED of RPi 5"),
  // the thread's start ("Start date Oct 8, 2024") and the board's links and rules ("Return to “Troubleshooting”", "You may not post replies").
  /^edited [^.!?]*\d[^.!?]*\bby\b[^.!?]{1,60}$/iu,
  /^reactions\s*:\s*[^.!?]{1,80}$/iu,
  /^#\d+\s*[·•|]\s*[^.!?]{1,30}$/iu,
  /^re:\s+\S.{0,120}$/iu,
  /^start date\s*:?\s*[^.!?]{1,30}$/iu,
  /^return to (?:the )?(?:top|index|[“"«][^”"»]{1,60}[”"»])$/iu,
  /^you may (?:not )?(?:post (?:new threads|replies|attachments)|edit your posts)$/iu,
  // Pagination one a line: "Page 1 of 2", "CONTINUED 1 2 3 Next", "< Previous Next >".
  /^page \d+ of \d+$/iu,
  /^(?:continued\s+)?(?:[«<‹]\s*)?(?:prev(?:ious)?\s+)?(?:\d{1,3}\s+){1,10}(?:next|›|»)\s*[»>›]?$|^[«<‹]?\s*prev(?:ious)?\s*[|·]?\s*next\s*[»>›]?$/iu,
  // A page's copyright line: "© Copyright 2007 Globe Newspaper Company.", "© 2025 Uber Technologies Inc."
  /^(?:©|\(c\)|copyright)\s*(?:©\s*)?(?:copyright\s*)?(?:©\s*)?\d{4}\b/iu,
  // A form's reCAPTCHA notice, and feedback prompts: "Was this page helpful?", "Did you find this product summary feature useful?", "Rate this page".
  /^this (?:site|page|form) is protected by recaptcha\b/iu,
  /^(?:(?:was|is) this (?:page|article|answer|post|information|content|review)(?: \S+)? (?:helpful|useful)|did you find this\b.{0,40}\b(?:helpful|useful)|rate this (?:page|article))\b[^.!]{0,20}\??$/iu,
  // A picture's address written out as text (a gallery's data left in the page): "https://cdn…/thumb.jpg".
  /^https?:\/\/\S+\.(?:jpe?g|png|gif|webp|avif)(?:\?\S*)?$/iu,
  // Placeholders of a page's scripts that never ran: "Loading...", "Loading paragraph…", "Please wait...".
  /^(?:loading|please wait)(?: [\p{L}_]+){0,2}\s*(?:\.{3}|…)$/iu,
  // A newsletter platform's box in a post: "Thanks for reading Cloud Database Report! This post is public so feel free to share it."
  /^thanks for reading [^.!?]{1,80}! (?:this post is public|subscribe for free)\b/iu,
  // Site credits: "Powered by Nikola".
  /^powered by\b/iu,
  // Article tools: "Story Tools: E-MAIL PRINT Text Size", "Email this article", "Print this story", "Send this article to a friend".
  /^(?:(?:story|article) tools|font size|text size)\s*:/iu,
  /^(?:e-?mail|print|send|share)(?: this)? (?:article|story|page)?\s*(?:to (?:a )?friends?\b|$)/iu,
  /^(?:printer[- ]?friendly(?: (?:page|version|format))?|print(?:able|er)? version|e-?mail to a friend)\b/iu,
  // A caption's credit at its end: "… Ski-Star aus der Schweiz. © AFP / MARCO BERTORELLO".
  /(?:^|\s)(?:©|\(c\)|(?:foto|fotos|photo|bild)\s*:)\s*[^.!?]{2,50}$/iu,
  // Tag and category lines: "Themen: Ehrenamt Jugendverbände", "Tags: python, docker", "Posted in News".
  /^(?:themen|tags?|schlagw(?:ö|oe)rter|stichw(?:ö|oe)rter|kategorien?|categor(?:y|ies)|etiquetas|catégories?)\s*:\s/iu,
  /^(?:filed under|abgelegt unter|this entry was posted in)\s/iu,
  // Newsroom notes after a story: "Write to Nick Wingfield at nick@wsj.com", "Some information for this
  // report was provided by AFP", "This article was originally published on page 28 of ...", "TrackBack
  // URL for this entry". Not "(Reporting by ...; Editing by ...)": L3S-GN1's readers kept it as the story's.
  /^(?:write to|(?:to )?contact the (?:reporters?|writers?|authors?|editors?)\b)[^!?]{0,120}@/iu,
  /^\(?(?:some )?(?:information|material) (?:for|in) this (?:report|story|article) (?:was )?(?:provided|contributed) by\b/iu,
  /^\(?this (?:news )?(?:article|story|report) (?:was )?(?:(?:originally|first) (?:published|appeared)|provided|distributed|supplied) (?:by|in|on)\b/iu,
  /^(?:the )?(?:trackback url|uri to trackback)\b/iu,
  // Comment and related-story headings, whole lines.
  /^(?:comments?|kommentare?|kommentieren(?: sie)?|das könnte (?:sie|dich) auch interessieren|mehr zum thema|zum weiterlesen|weitere themen|schon gelesen\?|you might also like|related (?:articles|posts|stories)|externer inhalt|inhaltsverzeichnis|fragen an den autor|originalartikel)\s*:?$/iu,
];

/** A date and time alone on a line, in an article: "Wednesday, 16 January 2008", "January 08, 2008 12:00am", "Mon, Jan 14 2008, 19:53 GMT". */
const DATE_LINE =
  /^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\.?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?\d{4}\b[\s,.\-–|@]*(?:\d{1,2}[:.]\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?\s*(?:[a-z]{2,4})?)?\.?$/iu;

/**
 * Labels that are furniture beside each post or product, a line each, and content as a heading (a
 * manual's "Messages" section, a page's "More info"), a table's cell (a league table's "Points") or
 * code (an API's `close` event):
 * - a forum member's figures: "Joined", "Messages", "Reaction score", "Posts: 1,077", "Join Date: Aug 2008", "Joined: Wed Feb 04, 2015 6:38 pm", "209 posts · Joined 2017";
 * - a shop's controls and badges written as links and labels: "Add to cart", "Add to wishlist", "In stock", "More info", "Top rated";
 * - a listing's filter, sort and paging controls: "Filters (2)", "Filter & Sort", "Sort: Best Match", "Show 90 results per page";
 * - a post's actions and badges one a line: "Follow", "save", "embed", "parent", "Edit", "Flag", "Share on other sites", "Author", "Original Poster", "Jump to Latest";
 * - a site's own links left one a line in the content: "Home", "Contact us", "Privacy policy", "Sign in".
 */
const LABEL_LINE = oneOf([
  /^(?:joined|join date|messages|reaction score|trophy points|points|posts|member since|registered|likes received)\s*:?\s*(?:[\d.,]+\s*[km]?|\p{L}{3,9}\.? \d{1,2},? \d{4}|\p{L}{3,9} \d{4})?$/iu,
  /^(?:joined|join date|member since|registered)\s*:\s*(?=[^\d]*\d)[\p{L}\p{N} ,.:/-]{1,32}$/iu,
  /^[\d,.]+\s*[km]?\s*(?:posts|messages|comments)\s*[·•|]\s*joined\b[^.!?]{0,20}$/iu,
  /^(?:add to (?:cart|basket|bag|wish ?list|compare)|in stock|more info|top rated|shop now)\s*[.:›»>+…!]*$/iu,
  /^(?:filters?(?:\s*\(\d+\))?|filter (?:and|&) sort|filter by)\s*[:+]?\s*(?:sort(?: by)?\s*:?)?$/iu,
  /^sort(?:ed)?(?: by)?\s*:\s*[^.!?:]{0,30}$/iu,
  /^(?:show(?:ing)? )?\d+ (?:results|items|products) per page$/iu,
  /^(?:follow|save|embed|parent|edit|flag|close|share on other sites|sign up or log ?in)$/iu,
  /^(?:author|original poster|thread starter|discussion starter|staff member|jump to (?:latest|new|first unread)|go to (?:first )?unread)$/iu,
  /^(?:home|blog|shop|search|contact us|about us|careers|sign (?:in|up)|log ?in|register|my account|sitemap|site map|privacy policy|cookie policy|terms(?: of (?:use|service)| (?:and|&) conditions)?|impressum|datenschutz(?:erklärung)?|kontakt)$/iu,
]);

/**
 * Bylines, whole lines: "Von: Götz Warnke", "By: admin", "Publiziert: 03.04.2020, 12:35" (more:
 * isByline). An article has a few; a listing's cards or a forum's posts have one each, and there
 * they are the content (BYLINES).
 */
const BYLINE_LINES = [
  /^(?:von|autor(?:in)?|text|by)\s*:\s*[^.!?]{0,40}$/iu,
  // A newsroom's byline for a story without a writer: "Staff and agencies", "CTV.ca News Staff", "Agencies"; not a team's "Technical staff".
  /^(?:(?:[\p{L}.]+ ){0,3}staff and agencies|(?:[\p{L}.]+ ){0,2}news staff|(?:[\p{L}.]+ )?agencies)$/iu,
  /^(?:(?:last|zuletzt) )?(?:publiziert|veröffentlicht|published|posted|release date|aktualisiert|updated)\b[^!?]{0,40}$/iu,
];
const FURNITURE_LINE = oneOf(FURNITURE_LINES);
const BYLINE_LINE = oneOf(BYLINE_LINES);
/** Bylines in a root at most (a writer's, published, updated, a second writer's): more are a listing's or a forum's. */
const BYLINES = 4;

/** Characters at most of a dateline. */
const DATELINE = 120;
/** Datelines above an article at most (a source's and a writer's): more are a listing's dates. */
const DATELINES = 2;
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?`;
const DAY = String.raw`\d{1,2}(?:st|nd|rd|th)?\b\.?`;
/** A date: "January 11, 2008", "28th December, 2007", "18 Jan", "Dec 29", "1/10/2008", "2008-01-14". */
const DATE = new RegExp(String.raw`\b(?:${DAY}\s+${MONTH}(?:,?\s+\d{4}\b)?|${MONTH}\s+(?:${DAY},?(?:\s+\d{4}\b)?|\d{4}\b)|\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\d{4}-\d{2}-\d{2}\b)`, 'giu');
const SPAN = String.raw`\b\d+\s+(?:seconds?|minutes?|mins?|hours?|hrs?|days?)\b`;
const AGO = new RegExp(String.raw`${SPAN}\s+ago\b`, 'iu');
const TIME = /\b\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?/giu;
/** What a dateline holds besides the date and a source or a writer: weekdays, a year, "2 hours ago", "Published:", time zones. */
const DATELINE_FILLER = new RegExp(
  String.raw`\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b\.?|\b\d{4}\b|${SPAN}|\b(?:ago|by|at|on|published|posted|updated|last|uhr|am|um|von|[ecpm][sd]?t|gmt|utc|cet|bst)\b|[^\p{L}\s]+`,
  'giu',
);
/**
 * A dateline: a date with a year or a time, and at most a few capitalised words beside it, a source or
 * a writer ("Associated Press - January 11, 2008 4:13 PM ET", "By SUMETH PANPETCH, Associated Press
 * Writer 1 hour, 40 minutes ago", "Eurosport - Sat, 29 Dec 15:58:00 2007"). Not a heading ("March
 * 2020"), nor a line with words in lower case ("March 2020: the lockdown begins").
 */
function isDateline(tag: string, text: string): boolean {
  if (text.length > DATELINE || /^h[2-6]$/.test(tag)) return false;
  const ago = AGO.test(text);
  const dates = text.match(DATE);
  if (!ago && !(dates && (dates.some((d) => /\d{4}/.test(d)) || /\d{1,2}[:.]\d{2}/.test(text)))) return false;
  return namesOnly(text, 6);
}

/**
 * Whether what a line holds besides dates, times and a dateline's filler is at most `most` words,
 * all of them names (capitalised) or short ones between names ("and", "in", "AP").
 */
function namesOnly(text: string, most: number): boolean {
  const words = text.replace(DATE, ' ').replace(TIME, ' ').replace(DATELINE_FILLER, ' ').split(/\s+/).filter(Boolean);
  return words.length <= most && words.every((w) => /^\p{Lu}/u.test(w) || (w.length <= 3 && words.length > 1));
}

/** A byline's opening: "By", "Written by", "Posted by:", "Von". */
const BYLINE_OPENS = /^(?:(?:written|posted|reported|words|story|text) )?(?:by|von)\b\s*:?\s*(?=\S)/iu;
/** Words at most of a byline besides its dates: writers, their titles, their paper, a place. */
const BYLINE_WORDS = 12;

/**
 * A byline, anywhere: "By Chris Foster, Los Angeles Times Staff Writer", "Written by Camila Karalyte",
 * "By Jennifer Agiesta January 14, 2008; 4:38 PM ET Post Polls", "by Kimber Streams, Dave Gershgorn,
 * and Haley Perry". Names after the opening and nothing else: not "By 2013, the landscape had
 * changed" nor "By pressing Submit I agree".
 */
function isByline(text: string): boolean {
  const opens = text.match(BYLINE_OPENS);
  return !!opens && text.length <= DATELINE && namesOnly(text.slice(opens[0].length), BYLINE_WORDS);
}

/** Words of subscription, app and social prompts anywhere in a short line with little prose. */
const PROMPT_LINE =
  /\b(?:newsletter|abonnier|subscrib(?:e|ing)\b|(?:become|already) an? (?:\S+ )?subscriber|(?:exclusive to|only for) \S+(?: \S+)? subscribers|google play|folg(?:e|en sie) uns|follow us|follow \S+(?: \S+)? on (?:twitter|facebook|instagram)|(?:canal|channel|kanal) (?:de |on |auf )?(?:telegram|whatsapp|youtube)|nos siga|s[ií]guenos|suivez-nous|apps? (?:for|für) (?:ios|android))/iu;
/**
 * Words every match of PROMPT_LINE, DISCLOSURE and ALL_RIGHTS holds, tested first: these run on
 * every line of a page, and a search for literal words is several times cheaper than the patterns
 * (two of them were 3 % of converting an article).
 */
const PROMPT_WORDS = /newsletter|abonnier|subscri|google play|folg|follow|telegram|whatsapp|youtube|siga|guenos|suivez|ios|android/iu;
const DISCLOSURE_WORDS = /commission|compensation|affiliate|qualifying|supported/iu;
const RIGHTS_WORDS = /rights|rechte|derechos|droits/iu;
/** Commas from which a short line with prompt words is prose that mentions them. */
const PROMPT_COMMAS = 3;
/**
 * What makes a line with prompt words a prompt rather than a sentence of the story that mentions a
 * newsletter or subscribing ("I also subscribe to many newsletters", "She started the newsletter in
 * 2019"): it is a label of a few words ("Newsletter abonnieren"), opens with the imperative
 * ("Subscribe to Think"), asks somewhere in it ("… please subscribe", "Sign up now", "our weekly
 * newsletter", "suscribirse aquí"), or is short and pitches ("our", "free", "now", "exclusive").
 */
const PROMPT_LABEL = 4;
/** The imperative at a line's start; `abonnier…`, `suscrib…` and `únete` ask anywhere (PROMPT_ASKS). */
const PROMPT_OPENS = /^\W*(?:subscribe|sign|join|get|follow|download|folg\p{L}*|s[ií]guenos|suivez|abonnez|inscri\p{L}*)(?!\p{L})/iu;
const PROMPT_ASKS =
  /(?:^|[^\p{L}])(?:sign(?:ing)? up|please subscribe|subscribe (?:now|today|here)|suscr[ií]b\p{L}*|abonnier\p{L}*|únete|download (?:the|our)|join (?:our|us)|our (?:[\p{L}-]+ ){0,3}newsletter|(?:in|to) your inbox|already a subscriber|(?:itunes|app store) (?:and|und|y|et) google play)(?!\p{L})/iu;
const PROMPT_PITCH =
  /(?:^|[^\p{L}])(?:our|us|now|today|here|free|inbox|never miss|click|tap|exclusive|unlock|unser\p{L}*|uns|jetzt|hier|kostenlos|gratis|nuestr[oa]s?|ahora|aquí|nosso|nossa|notre|ici|maintenant)(?!\p{L})/iu;
/** Words at most of a pitch: a longer line with those words is a sentence of the story ("… launched a paid tier built from a free newsletter"). */
const PITCH_WORDS = 12;

/** A subscription, app or social prompt (PROMPT_LINE) that asks the reader, or labels a box. */
function isPrompt(text: string, commas: number): boolean {
  if (commas >= PROMPT_COMMAS || !PROMPT_WORDS.test(text) || !PROMPT_LINE.test(text)) return false;
  const words = text.split(' ').length;
  return words <= PROMPT_LABEL || PROMPT_OPENS.test(text) || PROMPT_ASKS.test(text) || (words <= PITCH_WORDS && PROMPT_PITCH.test(text));
}

/**
 * An affiliate disclosure: "We may earn commission from links on this page", "Purchases made through
 * links earn us a small commission", "As an Amazon Associate I earn from qualifying purchases",
 * "enthält Affiliate Links".
 */
const DISCLOSURE =
  /\b(?:(?:we|i|editors?) (?:may |might |will |could )?(?:earn|receive|get|make)(?: us)? (?:a |an )?(?:small )?(?:affiliate )?(?:commissions?|compensation)|earns? us (?:a )?(?:small )?(?:affiliate )?commission|affiliate[- ]links?|earn(?:s)? from qualifying purchases|(?:is |are )?(?:a )?reader[- ]supported)\b/iu;
/** A writer saying there is nothing to disclose: "This post does NOT contain any affiliate links", "no affiliate links". */
const NO_DISCLOSURE = /\b(?:no|not|n't|never|without)\b[^.!?]{0,30}affiliate/iu;
/** Characters at most of a disclosure line: a paragraph of two or three sentences. */
const DISCLOSURE_LINE = 400;
/** Different disclosures a page shows at most (one at the top, one at the end): more are an article about affiliate sales. */
const DISCLOSURES = 2;

/**
 * A copyright or syndication notice: "Copyright 2008 The Associated Press. All rights reserved. This
 * material may not be published, broadcast, rewritten or redistributed.", "© dpa. Alle Rechte
 * vorbehalten", "Distributed by Internet Broadcasting. This material may not be published ...". It
 * reserves the rights in so many words, or opens with the right (or the syndicator) and then reserves
 * it; a sentence about copyright in an article ("the photos may not be published without consent,
 * a first for copyright law") does neither.
 */
const ALL_RIGHTS = /\b(?:all rights reserved|alle rechte vorbehalten|todos los derechos reservados|tous droits réservés)\b/iu;
const NOTICE_OPENS = /^(?:copyright\b|©|\(c\)|distributed by\b)/iu;
/** Characters at most of a notice line: a few sentences of terms (a syndicator's run to 300-400), not a paragraph that ends with one. */
const NOTICE_LINE = 400;
const NOTICE_RESERVES = /\b(?:(?:may|must) not be (?:re)?(?:published|reproduced|distributed|redistributed|broadcast|copied)|without (?:the )?(?:prior |express )?(?:written )?(?:permission|consent))\b/iu;

/**
 * A pointer to another story set in an article's text: "Related: <a>Core Value #1: Safety First</a>",
 * "READ MORE: <a>…</a>", "Also read: <a>…</a>", "WATCH: <a>…</a>". The label, then a link and nothing
 * else (POINTER_LINKS). Not "See also": a manual's cross-references are its content.
 */
const POINTER_OPENS =
  /^(?:related(?: (?:articles?|stories|story|posts?|reading|coverage))?|read (?:more|also|next)|also read|recommended(?: reading)?|more(?: (?:news|stories|coverage))?|watch(?: now)?|listen|don'?t miss|must read)\s*[:|»›]\s*(?=\S)/iu;
/** Share of the text after a pointer's label in links, at least. */
const POINTER_LINKS = 0.8;

/**
 * The title of a table of contents: "Table of contents", "On this page", "In this article", "Jump to:".
 * The table goes (in the chrome, as a nav, or as links to the page's own sections); its title,
 * left alone in the box they shared, goes too. A title with its table kept (a plain-text one, an
 * RFC's) is not alone.
 */
const TOC_LABEL = /^(?:table of contents|contents|on this page|in this (?:article|post|guide|page)|jump to|inhaltsverzeichnis|inhalt|sommaire|índice|contenido|indice)\s*:?$/iu;
const TOC_LABEL_LINE = 20;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * Whether an element's text is all its parent's (what it shared its box with is gone), and it is
 * not a heading: a section titled "Contents" is the page's, however its heading is wrapped.
 */
function isLoneLabel(el: Element, length: number): boolean {
  const parent = el.parentElement;
  if (!parent || HEADINGS.has(el.localName) || ancestorWithTag(el, HEADINGS)) return false;
  return visibleTextLength(parent, undefined, length + 1) === length;
}

/** A line to judge: an element, or the nodes of a line written with line breaks (lines.ts breakRuns). */
type Line = Element | readonly Node[];

/**
 * Short lines in the root that are furniture by their wording (FURNITURE_LINE, LABEL_LINE, PROMPT_LINE, a notice).
 * In an `article` root, also its dates, bylines, datelines, disclosures and pointers to other stories;
 * in a whole page (a listing, a forum thread: no main block) those are the content, each card's or post's.
 */
export function collectWorded(root: Element, stats: StatsMap, article = true): Set<Element> {
  const found: Line[] = [];
  const disclosures = new Map<Line, string>();
  // Datelines are looked for above the first paragraph: below it, and in numbers (a listing of
  // events, a forum's posts), dates and names are the content.
  const datelines: Line[] = [];
  const bylines: Line[] = [];
  let prose = 0;
  const judge = (line: Line, tag: string, length: number, text: string, commas: number): void => {
    if (length === 0 || length > DISCLOSURE_LINE || tag === 'h1') return;
    if (length > DATELINE) prose++;
    // An API's line ("sources: <string[]>", "channel.subscribe(onMessage)") is never furniture.
    if (CODE_LIKE.test(text)) return;
    if (DISCLOSURE_WORDS.test(text) && DISCLOSURE.test(text)) {
      if (article && !NO_DISCLOSURE.test(text)) disclosures.set(line, text);
    }
    else if (length <= NOTICE_LINE && ((RIGHTS_WORDS.test(text) && ALL_RIGHTS.test(text)) || (NOTICE_OPENS.test(text) && NOTICE_RESERVES.test(text)))) found.push(line);
    else if (length <= WORDED_LINE && (FURNITURE_LINE.test(text) || isPrompt(text, commas) || (LABEL_LINE.test(text) && !HEADINGS.has(tag) && !CELLS.has(tag) && !isCode(line, text)))) found.push(line);
    else if (length <= TOC_LABEL_LINE && TOC_LABEL.test(text) && isElement(line) && isLoneLabel(line, length)) found.push(line);
    else if (!article) return;
    else if (length <= WORDED_LINE && DATE_LINE.test(text)) found.push(line);
    else if (length <= WORDED_LINE && (BYLINE_LINE.test(text) || isByline(text))) bylines.push(line);
    else if (length <= WORDED_LINE && isPointer(line, length, text)) found.push(line);
    else if (prose === 0 && isDateline(tag, text)) datelines.push(line);
  };
  const judgeElement = (el: Element, length: number, commas: number): void => {
    if (length > 0 && length <= DISCLOSURE_LINE) judge(el, el.localName, length, collapse(el.textContent ?? ''), commas);
  };
  // A block that also holds blocks, or is too long to be one line: its runs of text and inline
  // elements between blocks and line breaks are lines (`…</p><hr><span class="legal">Copyright
  // …</span><br>`, `story…<br><br>Follow us on Twitter<br>` at the end of a story written with `<br>`s).
  const judgeRuns = (block: Element): void => {
    for (const run of breakRuns(block, stats)) {
      if (run.length === 1 && run[0].nodeType === 1) {
        const el = run[0] as Element;
        judgeElement(el, visibleTextLength(el), (el.textContent ?? '').split(COMMA).length - 1);
        continue;
      }
      const text = collapse(run.map((n) => (n.nodeType === 8 ? '' : n.textContent ?? '')).join(''));
      const length = text.length - (text.match(/ /g)?.length ?? 0);
      judge(run, 'span', length, text, text.split(COMMA).length - 1);
    }
  };
  if (stats.get(root)!.inline > 0) judgeRuns(root);
  walkElements(root, (el) => {
    // Code is judged by nobody: a license header or a dated log line in it is the code's. Nor is the
    // cell of a table with headers: a column headed "Comments" or "Share" is the table's, and a
    // cell taken out would shift the rest of its row.
    if (el.localName === 'pre' || (CELLS.has(el.localName) && isHeadedTable(el.closest('table')))) return false;
    const s = stats.get(el);
    if (!s || s.text === 0) return true;
    if (s.inline !== s.text) {
      if (s.inline > 0) judgeRuns(el);
      return true;
    }
    if (s.text <= DISCLOSURE_LINE) judgeElement(el, s.text, s.commas);
    else if (hasBreak(el)) judgeRuns(el);
    return false;
  });
  // The same disclosure repeated under every product is furniture however often it comes.
  if (new Set(disclosures.values()).size <= DISCLOSURES) found.push(...disclosures.keys());
  if (datelines.length <= DATELINES) found.push(...datelines);
  if (bylines.length <= BYLINES) found.push(...bylines);
  return new Set(found.map((line) => (isElement(line) ? line : wrapNodes(line))));
}

const CELLS = new Set(['td', 'th']);

/** A data table with a header cell: a table of figures, not one that lays out a page. Once a table: its cells all ask. */
const headedTables = new WeakMap<Element, boolean>();
function isHeadedTable(table: Element | null): boolean {
  if (!table) return false;
  let headed = headedTables.get(table);
  if (headed === undefined) headedTables.set(table, (headed = isDataTable(table) && findDescendant(table, (el) => el.localName === 'th') !== undefined));
  return headed;
}

const isElement = (line: Line): line is Element => !Array.isArray(line);

/** Whether a line is a piece of code: an API's `close` or `edit` is a name, not a control. */
const isCode = (line: Line, text: string): boolean =>
  isElement(line) && (line.localName === 'code' || findDescendant(line, (el) => el.localName === 'code' && collapse(el.textContent ?? '') === text) !== undefined);

/** Whether a line is a pointer to another story (POINTER_OPENS): its label, then links only. */
function isPointer(line: Line, length: number, text: string): boolean {
  const opens = text.match(POINTER_OPENS);
  if (!opens) return false;
  const links = isElement(line) ? linkTextOf(line) : line.reduce((sum, n) => sum + (n.nodeType === 1 ? linkTextOf(n as Element) : 0), 0);
  return links > 0 && links >= POINTER_LINKS * (length - opens[0].replace(/\s/g, '').length);
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
/** Whether a block holds a line break of its own: only then is a long block more than one line. */
const hasBreak = (el: Element): boolean => {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === 'br' || c.localName === 'hr') return true;
  return false;
};
