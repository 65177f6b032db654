// Tumbleweed in the client, besides its board: the rules retold in ru, uk and en with the
// diagrams they show, what its game page says, and the demonstrations that play the rules
// out. Data only (tests read it in Node); `index.js` pairs it with the board renderer.

import { PLAY_THE_COMPUTER } from './common.js';

// Builds a tumbleweed position from a few stacks, so the diagrams stay readable here.
function tumbleweedPosition(n, stacks, phase, passes = 0) {
  const cols = [];
  for (let i = 0; i < 2 * n - 1; i++) {
    const jMin = Math.max(1, i - n + 2);
    const jMax = Math.min(2 * n - 1, i + n);
    let col = '';
    for (let j = jMin; j <= jMax; j++) col += stacks['abcdefghijklmnopqrstu'[i] + j] || '.';
    cols.push(col);
  }
  return `${cols.join('/')} ${phase} ${passes}`;
}

const TUMBLEWEED_START = tumbleweedPosition(6, { f6: 'n2', d9: 'r1', b4: 'r1', d3: 'w1', b7: 'w1' }, 'r');

export const diagrams = {
  'tumbleweed.start': { game: 'tumbleweed', variant: 'hex6', position: tumbleweedPosition(6, { f6: 'n2' }, 'setup') },
  'tumbleweed.sight': {
    game: 'tumbleweed',
    variant: 'hex6',
    position: tumbleweedPosition(6, { f6: 'n2', c3: 'r1', i9: 'w1', d6: 'r2', h5: 'w2', f9: 'r1' }, 'w'),
    territory: true,
  },
};

export const rules = {
  en: [
    { h: 'What it is', p: ['A territory game by Mike Zapała (2020) on a hexagonal board. You place stacks of checkers; how tall a stack may be depends on how many of your stacks can see the cell. At the end, the cells you hold or watch over are your score.'] },
    { h: 'Board and setup', p: ['The board is a hexagon of hex cells, 8 cells to a side (6 for beginners, 11 for experts). A neutral stack of two stands in the centre.', 'The first player puts one red and one white checker on any two empty cells. Then the second player picks a colour — red or white — and the first player gets the other. This is the pie rule: a fair split, because the first player does not know which colour he will keep. Red moves first.'], d: 'tumbleweed.start' },
    { h: 'Line of sight', p: ['From a cell, look along the six lines through its neighbours. In each line you see only the first stack you meet, of any colour; it hides everything behind it. The cell’s own stack does not count.', 'With the territory overlay on, each empty cell is tinted by the colour that sees it more often.'], d: 'tumbleweed.sight' },
    { h: 'A move', demos: ['tumbleweed.height'], p: ['Pick a cell that at least one of your stacks sees. Count your stacks seen from it: that is the height of the stack you place there. On an empty cell you may always place it; on an occupied cell only if the stack there is lower — it is then replaced (a capture, or a reinforcement of your own stack). You may also pass.'] },
    { h: 'The end', p: ['The game ends after two passes in a row. Each colour scores the cells holding its stacks plus the empty cells it sees more often than the opponent does. The higher score wins; equal scores are a draw. The neutral stack belongs to nobody.'] },
  ],
  ru: [
    { h: 'Что это за игра', p: ['Игра на территорию Майка Запалы (2020) на шестиугольной доске. Вы ставите стопки шашек; высота стопки зависит от того, сколько ваших стопок видят клетку. В конце ваш счёт — клетки, которые вы занимаете или держите под присмотром.'] },
    { h: 'Доска и расстановка', p: ['Доска — шестиугольник из шестиугольных клеток, по 8 клеток на сторону (6 для новичков, 11 для опытных). В центре стоит нейтральная стопка из двух шашек.', 'Первый игрок ставит одну красную и одну белую шашку на любые две свободные клетки. Затем второй игрок выбирает цвет — красный или белый, а первому достаётся другой. Это правило «пирога»: делёж честный, ведь первый не знает, какой цвет ему останется. Первыми ходят красные.'], d: 'tumbleweed.start' },
    { h: 'Линии обзора', p: ['Из клетки смотрят по шести линиям через её соседей. На каждой линии видна только первая встреченная стопка любого цвета; она закрывает всё, что за ней. Стопка на самой клетке не в счёт.', 'Если включить подсветку территории, каждая пустая клетка окрашивается в цвет, который видит её чаще.'], d: 'tumbleweed.sight' },
    { h: 'Ход', demos: ['tumbleweed.height'], p: ['Выберите клетку, которую видит хотя бы одна ваша стопка. Сосчитайте ваши стопки, видимые из неё, — такой высоты стопку вы туда ставите. На пустую клетку ставить можно всегда, на занятую — только если стоящая там стопка ниже: её снимают и заменяют вашей (взятие или усиление своей стопки). Можно и пропустить ход.'] },
    { h: 'Конец игры', p: ['Игра заканчивается после двух пропусков подряд. Каждый цвет получает очки за клетки со своими стопками и за пустые клетки, которые он видит чаще соперника. Больше очков — победа; поровну — ничья. Нейтральная стопка не принадлежит никому.'] },
  ],
  uk: [
    { h: 'Що це за гра', p: ['Гра на територію Майка Запали (2020) на шестикутній дошці. Ви ставите стовпчики шашок; висота стовпчика залежить від того, скільки ваших стовпчиків бачать клітинку. Наприкінці ваш рахунок — клітинки, які ви займаєте або тримаєте під наглядом.'] },
    { h: 'Дошка й розстановка', p: ['Дошка — шестикутник із шестикутних клітинок, по 8 клітинок на бік (6 для новачків, 11 для досвідчених). У центрі стоїть нейтральний стовпчик із двох шашок.', 'Перший гравець ставить одну червону й одну білу шашку на будь-які дві вільні клітинки. Потім другий гравець обирає колір — червоний чи білий, а першому дістається інший. Це правило «пирога»: поділ чесний, бо перший не знає, який колір йому залишиться. Першими ходять червоні.'], d: 'tumbleweed.start' },
    { h: 'Лінії огляду', p: ['З клітинки дивляться шістьма лініями через її сусідів. На кожній лінії видно лише перший стовпчик будь-якого кольору; він затуляє все, що за ним. Стовпчик на самій клітинці не рахується.', 'Якщо ввімкнути підсвітку території, кожна порожня клітинка забарвлюється в колір, який бачить її частіше.'], d: 'tumbleweed.sight' },
    { h: 'Хід', demos: ['tumbleweed.height'], p: ['Оберіть клітинку, яку бачить хоча б один ваш стовпчик. Порахуйте ваші стовпчики, видимі з неї, — такої висоти стовпчик ви туди ставите. На порожню клітинку ставити можна завжди, на зайняту — лише якщо стовпчик там нижчий: його знімають і замінюють вашим (взяття або посилення свого стовпчика). Можна й пропустити хід.'] },
    { h: 'Кінець гри', p: ['Гра закінчується після двох пропусків поспіль. Кожен колір отримує очки за клітинки зі своїми стовпчиками та за порожні клітинки, які він бачить частіше за суперника. Більше очок — перемога; порівну — нічия. Нейтральний стовпчик не належить нікому.'] },
  ],
};

export const page = {
  origin: {
    en: ['Tumbleweed is a territory game for two invented in 2020 by Mike Zapała of Poland. It belongs to the family of Go, Yodd and Amazons: players place stacks of red and white checkers on a hexagonal board and fight for the cells.', 'The usual boards have 8 or 11 cells to a side; smaller ones suit beginners (ours has 6), larger ones give longer and deeper games.'],
    ru: ['Tumbleweed — территориальная игра для двоих, которую придумал в 2020 году Майк Запала из Польши. По-русски её тоже называют «Перекати-поле». Она из семейства го, йода и амазонок: игроки ставят стопки красных и белых шашек на шестиугольную доску и борются за клетки.', 'Обычные доски — 8 или 11 клеток на сторону; доски поменьше подходят новичкам (у нас есть 6), побольше — для долгих и глубоких партий.'],
    uk: ['Tumbleweed — територіальна гра для двох, яку вигадав 2020 року Майк Запала з Польщі. Російською її теж називають «Перекати-поле». Вона з родини ґо, йоду й амазонок: гравці ставлять стовпчики червоних і білих шашок на шестикутну дошку й борються за клітинки.', 'Звичайні дошки — 8 або 11 клітинок на бік; менші дошки пасують новачкам (у нас є 6), більші — для довгих і глибоких партій.'],
  },
  faq: [
    {
      q: { en: 'Why does the first player put down both colours?', ru: 'Почему первый игрок ставит шашки обоих цветов?', uk: 'Чому перший гравець ставить шашки обох кольорів?' },
      a: {
        en: 'It is the pie rule: one player sets the opening, the other chooses a colour. Since a lopsided opening would only help the opponent, the first player has every reason to make it fair.',
        ru: 'Это правило «пирога»: один расставляет начало, другой выбирает цвет. Неравное начало досталось бы сопернику, поэтому первому выгодно сделать его честным.',
        uk: 'Це правило «пирога»: один розставляє початок, другий обирає колір. Нерівний початок дістався б суперникові, тож першому вигідно зробити його чесним.',
      },
    },
    {
      q: { en: 'What if nobody can move?', ru: 'А если ходить некуда?', uk: 'А якщо ходити нікуди?' },
      a: {
        en: 'A player may always pass, and two passes in a row end the game. Then each colour counts its stacks and the empty cells it sees more often than the opponent does.',
        ru: 'Пропустить ход можно всегда, а два пропуска подряд заканчивают игру. Тогда каждый цвет считает свои стопки и пустые клетки, которые он видит чаще соперника.',
        uk: 'Пропустити хід можна завжди, а два пропуски поспіль закінчують гру. Тоді кожен колір рахує свої стовпчики й порожні клітинки, які він бачить частіше за суперника.',
      },
    },
    {
      q: { en: 'Can a stack jump or be moved?', ru: 'Можно ли передвинуть стопку или перепрыгнуть?', uk: 'Чи можна пересунути стовпчик або перестрибнути?' },
      a: {
        en: 'No: stacks never move. A new, taller stack can replace a lower one, yours or the opponent’s.',
        ru: 'Нет: стопки не двигаются. Новая, более высокая стопка может заменить низкую — свою или соперника.',
        uk: 'Ні: стовпчики не рухаються. Новий, вищий стовпчик може замінити нижчий — свій або суперника.',
      },
    },
    PLAY_THE_COMPUTER,
  ],
  names: {
    ru: ['Tumbleweed', 'Перекати-поле (игра Майка Запалы)', 'игра на шестиугольной доске', 'территориальная игра'],
    uk: ['Tumbleweed', 'Перекати-поле (гра Майка Запали)', 'гра на шестикутній дошці', 'територіальна гра'],
    en: ['Tumbleweed', 'Tumbleweed board game', 'hex territory game'],
  },
};

export const demos = {
  'tumbleweed.height': {
    game: 'tumbleweed',
    variant: 'hex6',
    steps: [
      {
        position: TUMBLEWEED_START,
        caption: {
          en: 'Red to move, and red looks at d6. Along its six lines the first stacks met are red b4, red d9, white d3 and the neutral f6: two of them are red.',
          ru: 'Ход красных, они смотрят на d6. Первые стопки на шести линиях от неё — красные b4 и d9, белая d3 и нейтральная f6: красных из них две.',
          uk: 'Хід червоних, вони дивляться на d6. Перші стовпчики на шести лініях від неї — червоні b4 і d9, білий d3 і нейтральний f6: червоних серед них два.',
        },
      },
      {
        moves: ['d6'],
        last: 'd6',
        position: '....../...r1..w1/......../..w1..r2..r1/........../.....n2...../........../........./......../......./...... w 0',
        caption: {
          en: 'So the stack red places on d6 is two checkers high. Its height is the count of red stacks in sight, no more and no less.',
          ru: 'Поэтому красные ставят на d6 стопку из двух шашек. Высота стопки — это число видимых красных стопок, ни больше ни меньше.',
          uk: 'Тому червоні ставлять на d6 стовпчик із двох шашок. Висота стовпчика — це кількість видимих червоних стовпчиків, ні більше ні менше.',
        },
      },
    ],
    try: {
      position: TUMBLEWEED_START,
      // Passing is legal too, but the task is a placement: the board offers none.
      legal: ['a3', 'a4', 'b1', 'b2', 'b3', 'b5', 'b6', 'b7', 'c4', 'c5', 'c8', 'd4', 'd5', 'd6', 'd7', 'd8', 'e10', 'e4', 'e7', 'e9', 'f11', 'f4', 'f8', 'f9', 'g4', 'g9', 'h10', 'h4', 'h9', 'i11', 'i4', 'i9', 'j9', 'k9'],
      omitted: ['pass'],
      answers: {
        b7: '....../...r1..r2/......../..w1.....r1/........../.....n2...../........../........./......../......./...... w 0',
        d4: '....../...r1..w1/......../..w1r2....r1/........../.....n2...../........../........./......../......./...... w 0',
        d6: '....../...r1..w1/......../..w1..r2..r1/........../.....n2...../........../........./......../......./...... w 0',
        g9: '....../...r1..w1/......../..w1.....r1/........../.....n2...../.......r2../........./......../......./...... w 0',
      },
      prompt: {
        en: 'Your turn, as red: place a stack two checkers high. d6 is one such cell; there are three more.',
        ru: 'Ваш ход за красных: поставьте стопку высотой в две шашки. d6 — одна такая клетка, есть ещё три.',
        uk: 'Ваш хід за червоних: поставте стовпчик заввишки у дві шашки. d6 — одна така клітинка, є ще три.',
      },
      right: {
        en: 'Right: two red stacks see that cell, so two checkers go there. (On b7 they are higher than the white single, so they take its place.)',
        ru: 'Верно: эту клетку видят две красные стопки, поэтому туда встают две шашки. (На b7 они выше белой одиночки и занимают её место.)',
        uk: 'Правильно: цю клітинку бачать два червоні стовпчики, тож туди стають дві шашки. (На b7 вони вищі за білу одиночку й займають її місце.)',
      },
      wrong: {
        en: 'From that cell red sees only one of its stacks, so the stack is one high. Count the red stacks first met along the six lines.',
        ru: 'С этой клетки видна лишь одна красная стопка, и стопка вышла в одну шашку. Считайте красные стопки, первыми встречающиеся на шести линиях.',
        uk: 'З цієї клітинки видно лише один червоний стовпчик, і стовпчик вийшов в одну шашку. Рахуйте червоні стовпчики, що першими трапляються на шести лініях.',
      },
    },
  },
};
