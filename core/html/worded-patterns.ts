/**
 * The wording of furniture lines (worded-lines.ts judges the lines of a page with it): the patterns
 * of credits, labels, bylines, datelines, prompts, disclosures and notices, and the tests on a
 * line's text alone.
 */
/** Characters at most of a line judged by its wording. */
export const WORDED_LINE = 150;
/** Code in a line ("channel.subscribe(onMessage)", "sources: <string[]>"): an API's, not furniture, whatever its words. */
export const CODE_LIKE = /\w\(|[{}<>=]/u;

/**
 * Each list as one pattern (the same matches: every part has the flags `iu` and no backreference):
 * one pass over a line instead of one a pattern, on every short line of every page.
 */
const oneOf = (patterns: readonly RegExp[]): RegExp => {
  const parts = patterns.map((re) => `(?:${re.source})`).join('|');
  // Anchored as a whole when every part is: then it is tried at the line's start only, not at every character.
  return new RegExp(patterns.every((re) => re.source.startsWith('^')) ? `^(?:${parts})` : parts, 'iu');
};

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
  // A story's audio player: "Listen to this article", "Listen to this story (4 min)", "Listen to this article in summarized format".
  /^listen to (?:this |the )?(?:article|story|post)\b[^.!?]{0,40}$/iu,
  // Author boxes: "Über den Autor", "About the author", "Von:".
  /^(?:über (?:den|die) autor(?:in)?|about the author|von|autor(?:in|en)?|by)\s*:?$/iu,
  // Share prompts and labels left of a share bar: "Möchten Sie den Artikel teilen?", "Share this article", "Share:", "Teilen".
  /^(?:share (?:this|the) (?:article|story|post)|.{0,40}\bteilen\?)$/iu,
  /^(?:share(?: this| on| via)?|teilen|compartir|partager|condividi)\s*:?$/iu,
  // Advertising labels: "Anzeige", "*Werbung. Dieser Beitrag …", "Sponsored by Acme", "Sponsored
  // results"; not a sentence that opens with the word ("Sponsored athletes earn more than ever").
  /^\W*(?:anzeige|werbung|advertisement|sponsored|publicidad)(?:\W*$|\s*[-–—:|.,*)\]]|\s+(?:by|von|content|posts?|links?|results?|stories|listings?)\b)/iu,
  // What an ad slot leaves in a story: "Story continues below advertisement", "Article Continues Below",
  // "Continue reading below", "Scroll to continue with content", "Ad Feedback", "Your video will play in 00:25".
  /^(?:(?:the )?(?:story|article|text|post|content) continues below(?: (?:this )?(?:advertisement|ad))?|continue reading (?:below|after (?:the )?(?:ad|advertisement))|scroll (?:down )?to continue(?: (?:with|reading) (?:the )?(?:content|article|story))?|ad feedback|your video will play in \d{1,2}:\d{2})$/iu,
  // A post's actions, a line of their own: "Reply Quote Like", "Improve this answer", "Reply with quote", "3 likes".
  /^(?:(?:reply(?: with quote)?|post reply|quote|multi-?quote|like|report|permalink|improve this (?:answer|question))\s*[|·•]?\s*)+$/iu,
  /^\d+ likes?$/iu,
  // Invision Community's lines under every post: "Link to comment", "Share on other sites", "More sharing options...".
  /^(?:link to (?:comment|post)|share on other sites|more sharing options)\s*(?:\.{3}|…)?$/iu,
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
  // the thread's start ("Start date Oct 8, 2024", "Thread starter Spursidol") and the board's links and rules ("Return to “Troubleshooting”", "You may not post replies").
  /^edited [^.!?]*\d[^.!?]*\bby\b[^.!?]{1,60}$/iu,
  /^reactions\s*:\s*[^.!?]{1,80}$/iu,
  /^#\d+\s*[·•|]\s*[^.!?]{1,30}$/iu,
  /^re:\s+\S.{0,120}$/iu,
  /^start date\s*:?\s*[^.!?]{1,30}$/iu,
  /^thread starter\s+[^.!?]{1,40}$/iu,
  // A thread's state: "Locked", "This discussion has been archived. No new comments can be posted.",
  // "This topic is now archived and is closed to further replies."
  /^(?:locked|this (?:discussion|thread|topic) (?:has been|is now|was) (?:archived|locked|closed)\b[^!?]{0,80})$/iu,
  /^return to (?:the )?(?:top|index|[“"«][^”"»]{1,60}[”"»])$/iu,
  /^you may (?:not )?(?:post (?:new threads|replies|attachments)|edit your posts)$/iu,
  // Pagination one a line: "Page 1 of 2", "CONTINUED 1 2 3 Next", "< Previous Next >", and a carousel's "Slide 1 of 8".
  /^(?:page|slide) \d+ of \d+$/iu,
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
  // A signup form's thanks, left in the page for after it is sent: "Thanks for signing up!", "You are now subscribed to our emails".
  /^(?:thanks?(?: you)? for (?:signing up|subscribing|your subscription)|you(?:'re| are) (?:now )?(?:all )?(?:signed up|subscribed)\b)[^.!?]{0,60}[.!]?$/iu,
  // Site credits: "Powered by Nikola".
  /^powered by\b/iu,
  // Article tools: "Story Tools: E-MAIL PRINT Text Size", "Email this article", "Print this story", "Send this article to a friend".
  /^(?:(?:story|article) tools|font size|text size)\s*:/iu,
  /^(?:e-?mail|print|send|share)(?: this)? (?:article|story|page)?\s*(?:to (?:a )?friends?\b|$)/iu,
  /^(?:printer[- ]?friendly(?: (?:page|version|format))?|print(?:able|er)? version|e-?mail to a friend)\b/iu,
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
  // A consent manager's box in place of an embedded post or video, until the reader agrees (German
  // publishers: "Empfohlener redaktioneller Inhalt", "An dieser Stelle findest du einen externen
  // Inhalt von YouTube, der den Artikel ergänzt.", "Ich bin damit einverstanden, dass mir Inhalte von
  // YouTube angezeigt werden.", "Personenbezogene Daten können an Drittplattformen übermittelt werden.").
  /^(?:empfohlener redaktioneller inhalt|externen? inhalte? (?:anzeigen|laden)|link zum [\p{L}\d-]+-inhalt|ein klick für den datenschutz)$/iu,
  /^an dieser stelle (?:finde(?:n sie|st du)|ist)\b[^.!?]{0,80}\bexterne[nr]? inhalt/iu,
  /^ich bin damit einverstanden, dass mir\b/iu,
  /^(?:damit können )?personenbezogene daten (?:können )?an drittplattformen übermittelt werden\b/iu,
  // Comment and related-story headings, whole lines.
  /^(?:comments?|kommentare?|kommentieren(?: sie)?|das könnte (?:sie|dich) auch interessieren|mehr zum thema|zum weiterlesen|weitere themen|schon gelesen\?|you might also like|related (?:articles|posts|stories)|externer inhalt|inhaltsverzeichnis|fragen an den autor|originalartikel)\s*:?$/iu,
];

/** Weekdays in English, German, French, Spanish, Portuguese and Italian, for DATE_LINE. */
const LINE_WEEKDAY = String.raw`(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo|segunda|terça|quarta|quinta|sexta|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica)(?:-feira)?`;
/**
 * What opens an English month (its other forms too: "Sept.", Polish "marca", Dutch "maart"), and the
 * names of German, French, Spanish, Portuguese and Italian months that open otherwise, whole: as
 * openings "mai", "set" or "gen" would take "Main", "Settings", "General".
 */
const LINE_MONTH = `(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|${[
  'jänner jän märz mär mai okt oktober dez dezember',
  'février févr fév avril avr juin juillet juil août décembre déc',
  'enero ene abril abr agosto ago setiembre octubre diciembre dic',
  'fevereiro fev março maio setembro set outubro out dezembro',
  'gennaio gen febbraio aprile maggio mag giugno giu luglio lug settembre ottobre ott dicembre',
].join(' ').replace(/ /g, '|')})`;
/**
 * A date and time alone on a line, in an article: "Wednesday, 16 January 2008", "January 08, 2008 12:00am",
 * "Mon, Jan 14 2008, 19:53 GMT", "21.dez.2018 às 12h55", "— 24 novembre 2017 à 18:42", "Freitag, 20. März 2021, 15:00 Uhr".
 */
export const DATE_LINE = new RegExp(
  String.raw`^[—–-]?\s*(?:${LINE_WEEKDAY}\.?,?\s+)?(?:\d{1,2}(?:st|nd|rd|th|er|º)?\.?\s*(?:de\s+)?)?${LINE_MONTH}\.?\s*(?:de\s+)?(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?\d{4}\b[\s,.\-–|@]*(?:(?:à|às|a las|alle|um|at)\s+)?(?:\d{1,2}[:.h]\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?|uhr)?\s*(?:[a-z]{2,4})?)?\.?$`,
  'iu',
);

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
export const LABEL_LINE = oneOf([
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

/** What a call to action opens with: a verb telling the reader to go elsewhere ("Read the full review", "Book now"). */
export const CALL_TO_ACTION =
  /^(?:read|learn|click|check|compare|shop|get|view|see|apply|sign|buy|download|subscribe|watch|listen|explore|discover|find out|start|try|join|book|order|request|visit|go to|continue|follow|register|log)\b/iu;

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
/** A caption's credit at its end: "… Ski-Star aus der Schweiz. © AFP / MARCO BERTORELLO". The only one not at a line's start: its words first. */
const CREDIT_AT_END = /(?:^|\s)(?:©|\(c\)|(?:foto|fotos|photo|bild)\s*:)\s*[^.!?]{2,50}$/iu;
const CREDIT_WORDS = /©|\(c\)|foto|photo|bild/iu;
/** A whole line that is furniture by its wording (FURNITURE_LINES, CREDIT_AT_END). */
export const isFurnitureLine = (text: string): boolean => FURNITURE_LINE.test(text) || (CREDIT_WORDS.test(text) && CREDIT_AT_END.test(text));
export const BYLINE_LINE = oneOf(BYLINE_LINES);
/** Bylines in a root at most (a writer's, published, updated, a second writer's): more are a listing's or a forum's. */
export const BYLINES = 4;

/** Characters at most of a dateline. */
export const DATELINE = 120;
/** Datelines above an article at most (a source's and a writer's): more are a listing's dates. */
export const DATELINES = 2;
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
export function isDateline(tag: string, text: string): boolean {
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

/** A reading time: "11 min read", "3 MIN. READ", "4 minute read time", "Reading Time: 8 minutes", "Estimated reading time:". */
const READING_TIME =
  /\b\d{1,3}\s*(?:min(?:ute)?s?|hours?|hrs?)\.?\s*read(?:ing)?(?:\s+time)?\b|\b(?:(?:estimated|average)\s+)?read(?:ing)?\s+time\b\s*:?\s*(?:(?:less than|about|approx\.?)\s+)?(?:(?:an?|\d{1,3})\s*(?:min(?:ute)?s?|hours?|hrs?)\b\.?)?/iu;

const READ_WORD = /read/i;

/**
 * A post's reading time on a line of its own, or with its date and writer ("Oct 11, 2023 · 2 min
 * read", "by Jacob Trussell—10 min read", "Bridgestone Team 5 min read"): an article's or a listing
 * card's furniture. Not a title that ends with one: what is left must be a few names.
 */
export function isReadingTime(text: string): boolean {
  // Both of READING_TIME's forms say "read": a search for the word first is far cheaper.
  if (!READ_WORD.test(text)) return false;
  const found = text.match(READING_TIME);
  return !!found && namesOnly(text.replace(found[0], ' '), 4);
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
export function isByline(text: string): boolean {
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

/** A social network named in a list ("Follow AP on Facebook, X, Instagram, YouTube and TikTok"): its comma is not prose's. */
const NETWORK_COMMA = /\b(?:twitter|x|facebook|instagram|youtube|tiktok|linkedin|threads|bluesky|telegram|whatsapp|pinterest|snapchat|reddit|mastodon|flipboard)\s*,/giu;

/** A subscription, app or social prompt (PROMPT_LINE) that asks the reader, or labels a box. */
export function isPrompt(text: string, commas: number): boolean {
  if (!PROMPT_WORDS.test(text) || !PROMPT_LINE.test(text)) return false;
  if (commas >= PROMPT_COMMAS && commas - (text.match(NETWORK_COMMA)?.length ?? 0) >= PROMPT_COMMAS) return false;
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
export const NO_DISCLOSURE = /\b(?:no|not|n't|never|without)\b[^.!?]{0,30}affiliate/iu;
/** Characters at most of a disclosure line: a paragraph of two or three sentences. */
export const DISCLOSURE_LINE = 400;
/** Different disclosures a page shows at most (one at the top, one at the end): more are an article about affiliate sales. */
export const DISCLOSURES = 2;

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
export const NOTICE_LINE = 400;
const NOTICE_RESERVES = /\b(?:(?:may|must) not be (?:re)?(?:published|reproduced|distributed|redistributed|broadcast|copied)|without (?:the )?(?:prior |express )?(?:written )?(?:permission|consent))\b/iu;

/**
 * Whether a line longer than WORDED_LINE may be a disclosure or a notice, the only furniture that
 * long: their literal words, or a notice's or a consent line's opening. Read on the text as it is,
 * so that most of a page's paragraphs are never collapsed.
 */
const LONG_WORDS = new RegExp(`${DISCLOSURE_WORDS.source}|${RIGHTS_WORDS.source}`, 'iu');
const LONG_OPENS = /^\s*(?:copyright|©|\(c\)|distributed\s+by|by\s)/iu;
export const mayBeLongWorded = (raw: string): boolean => LONG_WORDS.test(raw) || LONG_OPENS.test(raw);

/** An affiliate disclosure (DISCLOSURE), literal words first. */
export const isDisclosure = (text: string): boolean => DISCLOSURE_WORDS.test(text) && DISCLOSURE.test(text);

/**
 * A form's consent line: "By signing up, you agree to receive recurring automated SMS marketing
 * messages …", "By clicking “Post Your Answer”, you agree to our terms of service …", "By submitting
 * my email address I certify …", "By checking this box, you confirm that you have read …". Not a sentence about agreeing to something else ("By entering this
 * store you agree to be bound by …", an essay's quote of a sign): the opening is a form's action.
 */
const FORM_CONSENT =
  /^by (?:signing up|subscribing|registering|creating an account|continuing|checking (?:this|the) box|clicking\b[^.!?]{0,40}|submitting\b[^.!?]{0,40}|providing your (?:e-?mail|phone)[^.!?]{0,30}),?\s+(?:you|i)\b[^.!?]{0,120}\b(?:agree|consent|accept|acknowledge|certify|confirm)\b/iu;

/** A copyright or syndication notice (ALL_RIGHTS, or NOTICE_OPENS then NOTICE_RESERVES), or a form's consent line (FORM_CONSENT), literal words first. */
export const isNotice = (text: string): boolean =>
  (RIGHTS_WORDS.test(text) && ALL_RIGHTS.test(text)) || (NOTICE_OPENS.test(text) && NOTICE_RESERVES.test(text)) || FORM_CONSENT.test(text);

