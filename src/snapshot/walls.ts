/**
 * Walls: what stands between the agent and a page's content, read in the page with the capture's facts. A
 * sign-in, sign-up or one-time-code form; a CAPTCHA or bot check (by the frames, scripts and markup of the
 * vendors); a challenge page in front of the site; a consent, paywall or sign-in layer over it; an error page.
 * Each signal is strong or it is not reported: a false alarm sends the model after a wall that is not there, so
 * a weak sign (a vendor's script on an ordinary page, a login box in a sidebar) says nothing. wallLine.ts turns
 * the signals into the one header line the model reads.
 */

/** A field of a wall's form: its box key (to find its ref in the capture) and a name to fall back on. */
export interface WallField {
  name: string;
  key?: string;
  /** The field takes a password, or a code: what browser_type { secret } fills. */
  secret?: 'password' | 'code';
}

export interface WallSignals {
  /** The document's HTTP status (Navigation Timing), when the browser knows it. */
  status?: number;
  /** A form that asks to sign in, to create an account or for a one-time code; `covered` when it sits in a covering layer. */
  form?: { kind: 'login' | 'signup' | 'code'; fields: WallField[]; covered: boolean };
  /** A CAPTCHA or bot-check widget, by vendor; `visible` when a person sees it (a checkbox, a puzzle, a challenge shown). */
  captcha?: { vendor: string; visible: boolean };
  /** The page itself is a challenge in front of the site (an interstitial). */
  challenge?: { vendor: string };
  /** The layer covering the page (a modal dialog or a fixed overlay) asks for consent, a subscription or a sign-in. */
  cover?: { kind: 'consent' | 'paywall' | 'signin'; accept?: string; reject?: string };
  /** A paywall in the page's flow (the article stops at a subscription box). */
  paywall?: boolean;
  /** The page says it is an error page; `status` above says which. */
  error?: { text: string };
  /** What the page is, where its own markup says so (schema.org, Open Graph). */
  kind?: 'article' | 'product';
}

/**
 * Runs in the page, inside the capture's one script; everything it uses is declared inside. Reads the whole
 * document (walls are rarely near the viewport's edge) with a handful of selector queries; text is read only
 * on small pages and in covering layers.
 */
export function readWalls(): WallSignals {
  const out: WallSignals = {};
  const all = document.getElementsByTagName('*').length;
  // Challenge pages, error pages and most sign-in pages are small; articles and shops are not.
  const small = all < 600;
  const vw = innerWidth;
  const vh = innerHeight;

  const nav = performance.getEntriesByType('navigation')[0] as (PerformanceEntry & { responseStatus?: number }) | undefined;
  if (nav?.responseStatus) out.status = nav.responseStatus;

  const shown = (el: Element, minArea = 100): boolean => {
    const r = el.getBoundingClientRect();
    if (r.width * r.height < minArea || r.right < 0 || r.bottom < -5000 || r.left > vw) return false;
    return el.checkVisibility ? el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) : true;
  };
  const keyOf = (el: Element): string | undefined => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return undefined;
    return `${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}`;
  };
  const textOf = (el: Element | null, limit = 600): string => ((el as HTMLElement | null)?.innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, limit);
  const nameOf = (el: Element): string => {
    const input = el as HTMLInputElement;
    const label = input.labels?.[0] ? textOf(input.labels[0], 60) : '';
    return label || el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('name') || el.id || input.type || 'field';
  };

  // The layer covering the page, found from the points a person looks at first: an open modal dialog there, or a
  // fixed element covering much of the screen. (Searching the document for dialogs costs a walk of every element.)
  let cover: Element | undefined;
  for (const [fx, fy] of [[0.5, 0.5], [0.5, 0.3]] as const) {
    let fixed: Element | undefined;
    for (let el = document.elementFromPoint(vw * fx, vh * fy); el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
      const role = el.getAttribute('role');
      if ((el instanceof HTMLDialogElement && el.open && el.matches(':modal')) || ((role === 'dialog' || role === 'alertdialog') && el.getAttribute('aria-modal') === 'true')) {
        cover = el;
        break;
      }
      if (getComputedStyle(el).position === 'fixed') fixed = el;
    }
    if (cover) break;
    if (!fixed) continue;
    const r = fixed.getBoundingClientRect();
    const area = (Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0))) / (vw * vh);
    if (area >= 0.3) {
      cover = fixed;
      break;
    }
  }

  // CAPTCHA and bot-check vendors: the hosts their frames and scripts come from, the classes and ids their widgets leave.
  const VENDORS: Array<[vendor: string, host: RegExp, classes: string[], ids: string[]]> = [
    ['reCAPTCHA', /(^|\.)(google\.com|recaptcha\.net|gstatic\.com)\/recaptcha\//, ['g-recaptcha'], []],
    ['hCaptcha', /(^|\.)hcaptcha\.com\//, ['h-captcha'], []],
    ['Cloudflare Turnstile', /challenges\.cloudflare\.com\//, ['cf-turnstile'], []],
    ['Arkose FunCaptcha', /(arkoselabs|funcaptcha)\.com\//, [], ['FunCaptcha', 'arkose-challenge']],
    ['GeeTest', /geetest\.com\//, ['geetest_holder', 'geetest_panel', 'geetest_captcha'], []],
    ['DataDome', /captcha-delivery\.com\//, [], []],
    ['AWS WAF', /awswaf\.com\//, [], ['captcha-container']],
    ['PerimeterX/HUMAN', /(px-cdn|px-cloud|perimeterx|pxchk)\.net\//, [], ['px-captcha']],
    ['Friendly Captcha', /friendlycaptcha\.(com|eu)\//, ['frc-captcha'], []],
    ['Akamai', /\/_sec\/cp_challenge\//, [], ['sec-if-cpt-container', 'sec-cpt-if']],
  ];
  const vendorOf = (src: string) => VENDORS.find(([, host]) => host.test(src.replace(/^[a-z]+:\/\//i, '')))?.[0];
  let visible: string | undefined;
  let invisible: string | undefined;
  for (const frame of document.getElementsByTagName('iframe')) {
    const vendor = vendorOf(frame.src);
    if (!vendor) continue;
    // reCAPTCHA's badge (an invisible check) and a challenge frame kept hidden until needed are not shown to anyone.
    if (shown(frame, 2_000) && !frame.closest('.grecaptcha-badge')) visible ??= vendor;
    else invisible ??= vendor;
  }
  for (const [vendor, , classes, ids] of VENDORS) {
    const marks = [...classes.flatMap((name) => [...document.getElementsByClassName(name)]), ...ids.map((id) => document.getElementById(id)).filter((el) => !!el)];
    for (const el of marks) {
      if (el.getAttribute('data-size') !== 'invisible' && shown(el, 2_000)) visible ??= vendor;
      else invisible ??= vendor;
    }
  }
  const scripts = [...document.getElementsByTagName('script')];
  if (!invisible) {
    for (const script of scripts) {
      const vendor = script.src ? vendorOf(script.src) : undefined;
      if (vendor) {
        invisible = vendor;
        break;
      }
    }
  }
  // The inputs that can make a wall, read off the document's inputs by their properties in one pass (a selector per
  // word would walk the whole document each time): passwords, one-time codes, a site's own picture CAPTCHA.
  const CODE = /\b(one[-_ ]?time|otp|totp|2fa|mfa|two[-_ ]?factor|verification[-_ ]?code|auth(entication)?[-_ ]?code|security[-_ ]?code|passcode)\b/i;
  const TEXT = new Set(['text', 'email', 'tel', 'number', 'search', 'url']);
  const passwords: HTMLInputElement[] = [];
  const codeFields: HTMLInputElement[] = [];
  const boxes: HTMLInputElement[] = [];
  for (const input of document.getElementsByTagName('input')) {
    const type = input.type;
    if (type === 'password') {
      if (shown(input)) passwords.push(input);
    } else if (TEXT.has(type)) {
      const words = `${input.name} ${input.id} ${input.autocomplete} ${input.getAttribute('aria-label') ?? ''} ${input.placeholder}`;
      if (/captcha/i.test(words)) {
        if (shown(input)) visible ??= 'image CAPTCHA';
      } else if (input.maxLength === 1) boxes.push(input);
      else if ((input.autocomplete.includes('one-time-code') || CODE.test(words)) && !/\b(cc-|card|cvc|cvv)/i.test(words) && shown(input)) codeFields.push(input);
    }
  }
  if (visible || invisible) out.captcha = { vendor: (visible ?? invisible)!, visible: !!visible };

  // A page that is a challenge in front of the site: the vendors' interstitial markup, or a small page that asks to prove being human.
  const w = window as unknown as Record<string, unknown>;
  const title = document.title.trim();
  const bodyText = small ? textOf(document.body, 2_000) : '';
  const byId = (...ids: string[]) => ids.some((id) => document.getElementById(id));
  if (w._cf_chl_opt || byId('challenge-form', 'challenge-running', 'challenge-stage', 'cf-challenge-running') || document.getElementsByClassName('cf-browser-verification').length) {
    out.challenge = { vendor: 'Cloudflare' };
  } else if (small && /^(just a moment|attention required|checking your browser|one more step|please wait)\b/i.test(title) && document.querySelector('script[src*="/cdn-cgi/challenge-platform/"], [src*="challenges.cloudflare.com"]')) {
    out.challenge = { vendor: 'Cloudflare' };
  } else if (small && (w.gokuProps || w.AwsWafIntegration) && document.querySelector('script[src*="awswaf.com"]')) {
    out.challenge = { vendor: 'AWS WAF' };
  } else if (byId('sec-if-cpt-container', 'sec-cpt-if') || (small && document.querySelector('script[src*="/_sec/cp_challenge/"]'))) {
    out.challenge = { vendor: 'Akamai' };
  } else if (small && (document.querySelector('iframe[src*="captcha-delivery.com"]') || (w.dd && document.querySelector('script[src*="captcha-delivery.com"]')))) {
    out.challenge = { vendor: 'DataDome' };
  } else if (small && byId('px-captcha')) {
    out.challenge = { vendor: 'PerimeterX/HUMAN' };
  } else if (small && document.querySelector('iframe[src*="_Incapsula_Resource"]')) {
    out.challenge = { vendor: 'Imperva' };
  } else if (
    small &&
    bodyText.length < 700 &&
    /\b(verify (that )?you are (a )?human|verify you('| a)re (a )?human|checking (if the site connection is secure|your browser)|are you a robot|confirm you('| a)re not a robot|prove you('| a)re (a )?human|unusual traffic from your computer|complete the security check|press (&|and) hold)\b/i.test(`${title} ${bodyText}`)
  ) {
    out.challenge = { vendor: 'a bot check' };
  }

  // Forms that ask for an account or a code, visible ones only. A code may be split into one box per digit.
  if (!codeFields.length && boxes.length >= 4 && boxes.length <= 8 && boxes.every((el) => shown(el) && el.parentElement?.parentElement === boxes[0]!.parentElement?.parentElement)) codeFields.push(boxes[0]!);
  const field = (el: Element, secret?: WallField['secret']): WallField => ({ name: nameOf(el), key: keyOf(el), ...(secret ? { secret } : {}) });
  const ACCOUNT_WORDS = /\b(sign[ -]?in|log[ -]?in|sign[ -]?on|anmelden|connexion|se connecter|iniciar sesi[oó]n|accedi)\b/i;
  const SIGNUP_WORDS = /\b(sign[ -]?up|create (an |your )?account|register|registrieren|inscri)/i;
  // The page's own title and main heading: a sign-in box's own heading ("Log in" in a sidebar) says nothing of the page.
  const headings = textOf(document.querySelector('h1'), 120);
  if (passwords.length) {
    const first = passwords[0]!;
    const form = first.closest('form') ?? first.parentElement?.parentElement?.parentElement ?? document.body;
    const inForm = passwords.filter((p) => form.contains(p));
    const buttons = [...form.querySelectorAll('button, input[type=submit], [role=button]')].map((b) => textOf(b, 60) || (b as HTMLInputElement).value || '').join(' ');
    const signup = inForm.length >= 2 || inForm.some((p) => p.getAttribute('autocomplete') === 'new-password') || SIGNUP_WORDS.test(buttons);
    const texts = [...form.querySelectorAll('input')].filter((el) => TEXT.has(el.type) && el.type !== 'search' && !el.readOnly && !el.disabled && shown(el));
    // The account's name: the field that says so, else the first one.
    const user = texts.find((el) => /username|email/.test(el.autocomplete) || el.type === 'email' || /user|mail|login|account|customer|member/i.test(`${el.name} ${el.id}`)) ?? texts[0];
    const covered = !!cover?.contains(first);
    // A sign-in box beside the page's content (a sidebar, a header) is no wall: the page, a covering layer or its
    // headings must be about it.
    const aside = !!first.closest('aside, nav, header, footer, [role=complementary], [class*=sidebar i], [id*=sidebar i]');
    const about = covered || (small && bodyText.length < 600 && !aside) || ACCOUNT_WORDS.test(`${title} ${headings}`) || (signup && SIGNUP_WORDS.test(`${title} ${headings}`));
    if (about && first.getBoundingClientRect().top < vh * 1.5) {
      const named = signup ? texts.slice(0, 3) : user ? [user] : [];
      const fields = [...named.map((el) => field(el)), ...inForm.slice(0, signup ? 2 : 1).map((p) => field(p, 'password'))];
      out.form = { kind: signup ? 'signup' : 'login', fields, covered };
    }
  } else if (codeFields.length && ((small && bodyText.length < 600) || cover?.contains(codeFields[0]!) || CODE.test(`${title} ${headings}`) || /\bcode\b/i.test(headings))) {
    out.form = { kind: 'code', fields: [field(codeFields[0]!, 'code')], covered: !!cover?.contains(codeFields[0]!) };
  } else if (small && !out.challenge) {
    // The first step of a sign-in that asks for the account before the password.
    const user = document.querySelector('input[autocomplete~=username], input[type=email], input[name*=user i], input[name*=login i], input[name*=email i]');
    if (user && shown(user) && ACCOUNT_WORDS.test(`${title} ${headings}`)) out.form = { kind: 'login', fields: [field(user)], covered: !!cover?.contains(user) };
  }

  // What the covering layer asks. Consent needs its words and a button that agrees; a paywall or a sign-in prompt, theirs.
  // The page's kind, from its own metadata: said in a wall's line only (and it says where a paywall may be).
  const og = document.querySelector('meta[property="og:type"]')?.getAttribute('content') ?? '';
  let types = '';
  for (const script of scripts.filter((el) => el.type === 'application/ld+json').slice(0, 5)) types += ` ${(script.textContent ?? '').slice(0, 5_000)}`;
  if (/^product/i.test(og) || /"@type"\s*:\s*"Product"/.test(types)) out.kind = 'product';
  else if (/^article/i.test(og) || /"@type"\s*:\s*"(News|Blog|Scholarly|Tech)?Article"|"@type"\s*:\s*"BlogPosting"/.test(types)) out.kind = 'article';
  // A newsletter's "subscribe" is not a paywall: these say that reading stops without a subscription.
  const PAYWALL = /to continue reading|keep reading|continue reading with|free articles?|article limit|reached your (free )?(article )?limit|subscribe to (read|continue|unlock|access|keep)|subscribers? only|for subscribers|already a subscriber|unlock (this|the full|full) (article|story)/i;
  if (cover) {
    const text = textOf(cover);
    const id = `${cover.id} ${typeof cover.className === 'string' ? cover.className : ''}`;
    const buttons = [...cover.querySelectorAll('button, a[href], [role=button], input[type=submit], input[type=button]')].filter((b) => shown(b, 20));
    const labelled = (pattern: RegExp) => buttons.find((b) => pattern.test(textOf(b, 60) || (b as HTMLInputElement).value || b.getAttribute('aria-label') || ''));
    const accept = labelled(/^(accept|agree|allow|i agree|i accept|ok|okay|got it|yes|consent|continue|akzeptieren|alle akzeptieren|accepter|tout accepter|aceptar)\b|accept all|allow all|agree (and|&) (close|continue)/i);
    const reject = labelled(/^(reject|decline|deny|refuse|disagree|necessary only|only necessary|essential only|use necessary|continue without|ablehnen|refuser|tout refuser|rechazar)\b|reject all|decline all/i);
    const consentWords = /\bcookies?\b|\bconsent\b|\bgdpr\b|privacy (choices|settings|preferences|options)|value your privacy|tracking technolog|datenschutz|personal data/i;
    const cmp = /onetrust|cookiebot|didomi|qc-cmp|sp_message|usercentrics|fc-consent|truste|cmpbox|cookie|consent/i;
    if (((consentWords.test(text) && accept) || (cmp.test(id) && (accept || !text))) && !cover.querySelector('input[type=password]')) {
      out.cover = { kind: 'consent', ...(accept ? { accept: keyOf(accept) } : {}), ...(reject ? { reject: keyOf(reject) } : {}) };
    } else if (cover.querySelector('input[type=password]') || /\b(sign|log) ?in to (continue|read|view|see|keep)|create (a free |an )?account to (continue|read|keep)|register to (continue|read|keep)/i.test(text)) {
      out.cover = { kind: 'signin' };
    } else if (PAYWALL.test(text) || /paywall|regwall|tp-modal/i.test(id)) {
      out.cover = { kind: 'paywall' };
    }
  }
  // A paywall in the article's flow, looked for where one can be: an article, or content marked as not free.
  if (!out.cover && (out.kind === 'article' || /"isAccessibleForFree"\s*:\s*"?false/i.test(types))) {
    for (const box of document.querySelectorAll('[id*=paywall i], [class*=paywall i], [data-testid*=paywall i], #gateway-content, .tp-container-inner')) {
      if (shown(box, 20_000) && (PAYWALL.test(textOf(box, 400)) || /\bsubscription\b/i.test(textOf(box, 400)))) {
        out.paywall = true;
        break;
      }
    }
  }

  // An error page: said by its status, or on a small page by a title or heading that is nothing but the error.
  const ERRORS = [
    /^(error\s*)?(400|401|403|404|410|500|502|503)(\s*error)?(\s*[-–—:|.!]?\s*(page\s+)?(not\s+found|forbidden|gone|unauthorized|internal\s+server\s+error|bad\s+gateway|service\s+unavailable|access\s+denied)\.?)?$/i,
    /^(page|file|article|content|site)\s+(was\s+)?not\s+found[.!]?$|^not\s+found[.!]?$/i,
    /^(sorry|oops|whoops|uh[- ]oh)\b[,.!]*\s*(we\s+(can'?t|couldn'?t|could\s+not)\s+find\s+(that|this|the|your)\s+page|(that|this|the)\s+page\s+(can'?t|could\s*n[o']t|cannot)\s+be\s+found|(that|this|the)\s+page\s+does\s*n[o']t\s+exist|something\s+went\s+wrong)/i,
    /^this\s+page\s+(isn'?t\s+available|is\s+not\s+available|does\s*n[o']t\s+exist|could\s+not\s+be\s+found|can'?t\s+be\s+found|cannot\s+be\s+found)/i,
    /^the\s+page\s+you\s+(requested|were\s+looking\s+for|are\s+looking\s+for)\s+(could\s+not\s+be\s+found|cannot\s+be\s+found|does\s*n[o']t\s+exist|is\s+not\s+available|was\s+not\s+found|no\s+longer\s+exists)/i,
    /^(something\s+went\s+wrong|internal\s+server\s+error|service\s+(temporarily\s+)?unavailable|access\s+denied|forbidden|bad\s+gateway)[.!]?$/i,
  ];
  if (out.status && out.status >= 400) out.error = { text: title || textOf(document.querySelector('h1'), 80) };
  else if (small && !out.form && !out.challenge && bodyText.length < 1_500 && !document.querySelector('article')) {
    const h1 = textOf(document.querySelector('h1'), 120);
    const said = [title.split(/\s+[|–—-]\s+/)[0]!.trim(), h1].find((text) => text && ERRORS.some((error) => error.test(text)));
    if (said) out.error = { text: said };
  }

  return out;
}
