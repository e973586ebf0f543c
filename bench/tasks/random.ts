/**
 * Seeded randomness for task pages: the same task id and seed always give the same page, so a failure
 * can be replayed, while different seeds move names, values, orders and positions around.
 */

export class Rng {
  private state: number;

  constructor(key: string) {
    // FNV-1a over the key gives a 32-bit start state; mulberry32 then gives the stream.
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) {
      hash ^= key.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    this.state = hash >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }

  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, count);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Upper-case letters and digits, without the ones people confuse (O/0, I/1). */
  code(length: number): string {
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
    return Array.from({ length }, () => this.pick([...alphabet])).join('');
  }
}

export const FIRST_NAMES = [
  'Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Keiko', 'Lars', 'Mina',
  'Nadia', 'Oscar', 'Priya', 'Quentin', 'Rosa', 'Samir', 'Tessa', 'Umar', 'Vera', 'Wendel', 'Ximena', 'Yusuf', 'Zora',
];
export const LAST_NAMES = [
  'Abbott', 'Baptiste', 'Castellano', 'Dubois', 'Eriksen', 'Fontaine', 'Garber', 'Holloway', 'Iqbal', 'Jansen',
  'Kowalski', 'Lindqvist', 'Moreau', 'Novak', 'Okafor', 'Petrov', 'Quinlan', 'Rinaldi', 'Sato', 'Tanaka', 'Ulrich',
  'Vasquez', 'Whitfield', 'Yilmaz', 'Zeller',
];
export const CITIES = [
  'Aberdeen', 'Bergen', 'Cordoba', 'Dresden', 'Eindhoven', 'Florence', 'Gdansk', 'Hamburg', 'Innsbruck', 'Jaipur',
  'Kyoto', 'Lisbon', 'Marseille', 'Nantes', 'Oslo', 'Porto', 'Quito', 'Riga', 'Seville', 'Tallinn', 'Utrecht',
  'Valencia', 'Warsaw', 'Zagreb',
];
/** Cities sharing first letters, for autocompletes (CITIES has one per letter). */
export const TOWNS = [
  'Bari', 'Basel', 'Bath', 'Bergamo', 'Bilbao', 'Bologna', 'Bonn', 'Bordeaux', 'Bremen', 'Brno', 'Cadiz', 'Cardiff',
  'Cork', 'Coventry', 'Graz', 'Genoa', 'Ghent', 'Geneva', 'Girona', 'Leeds', 'Leipzig', 'Lille', 'Linz', 'Lyon',
  'Lucca', 'Malaga', 'Malmo', 'Mainz', 'Milan', 'Modena', 'Munich', 'Murcia', 'Padua', 'Palermo', 'Parma', 'Perugia',
  'Pisa', 'Poznan', 'Salzburg', 'Siena', 'Split', 'Sofia', 'Turin', 'Toulouse', 'Trieste', 'Tours',
];
export const COLORS = ['Amber', 'Azure', 'Crimson', 'Emerald', 'Indigo', 'Ivory', 'Lavender', 'Magenta', 'Ochre', 'Olive', 'Scarlet', 'Teal', 'Turquoise', 'Violet'];
export const FRUITS = ['Apricot', 'Banana', 'Cherry', 'Damson', 'Fig', 'Guava', 'Kiwi', 'Lemon', 'Lychee', 'Mango', 'Melon', 'Papaya', 'Peach', 'Plum', 'Quince'];
export const ANIMALS = ['badger', 'beaver', 'falcon', 'ferret', 'gecko', 'heron', 'jackal', 'lemur', 'marmot', 'otter', 'panda', 'puffin', 'raven', 'salmon', 'walrus', 'wombat'];
/** Short common words for captchas and edits: no ambiguous letters (l/I) needed. */
export const WORDS = [
  'anchor', 'basket', 'candle', 'donkey', 'engine', 'forest', 'garden', 'harbor', 'island', 'jacket', 'kettle',
  'ladder', 'marble', 'napkin', 'orange', 'pepper', 'rabbit', 'saddle', 'tunnel', 'velvet', 'window', 'zipper',
  'bucket', 'carpet', 'desert', 'fabric', 'ginger', 'hammer', 'meadow', 'pocket', 'rocket', 'silver', 'timber',
];
export const COUNTRIES = [
  'Albania', 'Algeria', 'Andorra', 'Angola', 'Argentina', 'Armenia', 'Australia', 'Austria', 'Bahamas', 'Bahrain',
  'Bangladesh', 'Barbados', 'Belarus', 'Belgium', 'Belize', 'Benin', 'Bhutan', 'Bolivia', 'Botswana', 'Brazil', 'Brunei',
  'Bulgaria', 'Burundi', 'Cambodia', 'Cameroon', 'Canada', 'Chad', 'Chile', 'China', 'Colombia', 'Comoros', 'Croatia',
  'Cuba', 'Cyprus', 'Czechia', 'Denmark', 'Djibouti', 'Dominica', 'Ecuador', 'Egypt', 'Eritrea', 'Estonia', 'Eswatini',
  'Ethiopia', 'Fiji', 'Finland', 'France', 'Gabon', 'Gambia', 'Georgia', 'Germany', 'Ghana', 'Greece', 'Grenada',
  'Guatemala', 'Guinea', 'Guyana', 'Haiti', 'Honduras', 'Hungary', 'Iceland', 'India', 'Indonesia', 'Iran', 'Iraq',
  'Ireland', 'Israel', 'Italy', 'Jamaica', 'Japan', 'Jordan', 'Kenya', 'Kiribati', 'Kuwait', 'Laos', 'Latvia',
  'Lebanon', 'Lesotho', 'Liberia', 'Libya', 'Lithuania', 'Luxembourg', 'Madagascar', 'Malawi', 'Malaysia', 'Maldives',
  'Mali', 'Malta', 'Mauritania', 'Mauritius', 'Mexico', 'Moldova', 'Monaco', 'Mongolia', 'Montenegro', 'Morocco',
  'Mozambique', 'Myanmar', 'Namibia', 'Nauru', 'Nepal', 'Netherlands', 'Nicaragua', 'Niger', 'Nigeria', 'Norway',
  'Oman', 'Pakistan', 'Palau', 'Panama', 'Paraguay', 'Peru', 'Philippines', 'Poland', 'Portugal', 'Qatar', 'Romania',
  'Rwanda', 'Samoa', 'Senegal', 'Serbia', 'Seychelles', 'Singapore', 'Slovakia', 'Slovenia', 'Somalia', 'Spain',
  'Sudan', 'Suriname', 'Sweden', 'Switzerland', 'Syria', 'Tajikistan', 'Tanzania', 'Thailand', 'Togo', 'Tonga',
  'Tunisia', 'Turkey', 'Tuvalu', 'Uganda', 'Ukraine', 'Uruguay', 'Uzbekistan', 'Vanuatu', 'Venezuela', 'Vietnam',
  'Yemen', 'Zambia', 'Zimbabwe',
];
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function fullName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

/** `count` different full names. */
export function people(rng: Rng, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) names.add(fullName(rng));
  return [...names];
}

export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
