// Perekati-pole in the client, besides its board: the rules retold in ru, uk and en with the
// diagrams they show, what its game page says, and the demonstrations that play the rules
// out. Data only (tests read it in Node); `index.js` pairs it with the board renderer.

import { PLAY_THE_COMPUTER } from './common.js';

export const diagrams = {
  'perekati.start': { game: 'perekati', variant: 'malysh', position: 'uuuuu/...../...../...../...../UUUUU a' },
  'perekati.roll': { game: 'perekati', variant: 'malysh', position: 'uuuuu/...../...../...../..N../UU.UU b', last: 'c1c2' },
  'perekati.home': { game: 'perekati', variant: 'malysh', position: 'U.uuu/.u.../...../...s./...../.UUUU b' },
};

export const rules = {
  en: [
    { h: 'What it is', p: ['A race of rolling cubes from the Soviet children’s box “Malysh” (1987). Each cube has one marked face, the hat. You win by bringing your cubes to the far side of the board so that they arrive with the hat on top.'] },
    { h: 'The board', p: ['The standard board has 5 columns and 6 rows; other variants use 5 × 7, 6 × 8 or 6 × 6. Light cubes (side a) start on the bottom row, dark cubes (side b) on the top row, all with the hat up. Light moves first.', 'On our boards the hat is drawn like this: a big red dot — the hat is on top; a red bar along one edge — the hat faces that way; a hollow ring — the hat is underneath.'], d: 'perekati.start' },
    { h: 'A move', demos: ['perekati.roll', 'perekati.blocked'], p: ['Tip one of your cubes over an edge onto the neighbouring cell in front, behind, left or right. The cell must be empty and on the board: no jumps, no diagonals, no captures, no passing.', 'Rolling turns the cube: a hat on top ends up facing the direction of the roll; a hat facing that way goes underneath; a hat underneath comes up on the opposite side; a hat facing backwards comes to the top. Four rolls the same way bring the hat back.'], d: 'perekati.roll' },
    { h: 'Home', p: ['A cube that stands on the opponent’s starting row with its hat on top is home: it counts for you and does not move again. On that row with the hat anywhere else, it is not home yet and keeps rolling.'], d: 'perekati.home' },
    { h: 'No rocking', p: ['You may not roll the same cube back and forth more than twice in a row: after there-back-there-back, the next “there” is forbidden.'] },
    { h: 'The end', p: ['You win at once when all your cubes are home. If the player to move has no legal move, the game stops and whoever has more cubes home wins; equal counts are a draw. The same happens when one position (all cubes, hats and the side to move) appears for the third time. On this site a game also ends when 50 moves by each player go by without any cube coming home while one player has more cubes home: that player wins.'] },
  ],
  ru: [
    { h: 'Что это за игра', p: ['Гонка катящихся кубиков из советской настольной игры «Малыш» (1987). У каждого кубика одна грань помечена — это шапочка. Побеждает тот, кто докатит свои кубики до дальнего края доски так, чтобы шапочка оказалась сверху.'] },
    { h: 'Доска', p: ['Обычная доска — 5 столбцов и 6 рядов; в вариантах бывает 5 × 7, 6 × 8 и 6 × 6. Светлые кубики (сторона a) стоят в нижнем ряду, тёмные (сторона b) — в верхнем, все шапочкой вверх. Начинают светлые.', 'На наших досках шапочка нарисована так: большая красная точка — шапочка сверху; красная полоска у края — шапочка смотрит в эту сторону; пустое кольцо — шапочка снизу.'], d: 'perekati.start' },
    { h: 'Ход', demos: ['perekati.roll', 'perekati.blocked'], p: ['Переверните один свой кубик через ребро на соседнюю клетку — вперёд, назад, влево или вправо. Клетка должна быть свободной и на доске: прыгать, ходить по диагонали, бить и пропускать ход нельзя.', 'При перекатывании кубик поворачивается: шапочка сверху уходит в сторону движения; шапочка, смотревшая туда, оказывается снизу; шапочка снизу выходит на противоположную сторону; шапочка, смотревшая назад, поднимается наверх. Четыре переката в одну сторону возвращают шапочку на место.'], d: 'perekati.roll' },
    { h: 'Дома', p: ['Кубик, стоящий в исходном ряду соперника шапочкой вверх, — дома: он засчитывается вам и больше не ходит. Если шапочка в этом ряду смотрит в другую сторону, кубик ещё не дома и катится дальше.'], d: 'perekati.home' },
    { h: 'Без качания', p: ['Нельзя катать один и тот же кубик туда-обратно больше двух раз подряд: после «туда-обратно-туда-обратно» следующее «туда» запрещено.'] },
    { h: 'Конец игры', p: ['Вы сразу побеждаете, когда все ваши кубики дома. Если у того, чья очередь, нет ни одного хода, игра останавливается и побеждает тот, у кого дома больше кубиков; при равенстве — ничья. То же самое происходит, когда одна и та же позиция (все кубики, шапочки и очередь хода) встречается в третий раз. На нашем сайте партия кончается и тогда, когда за 50 ходов каждого игрока ни один кубик не пришёл домой, а у одного из игроков дома больше кубиков: он и побеждает.'] },
  ],
  uk: [
    { h: 'Що це за гра', p: ['Перегони кубиків, що перекочуються, з радянської настільної гри «Малиш» (1987). У кожного кубика одна грань позначена — це шапочка. Перемагає той, хто докотить свої кубики до дальнього краю дошки так, щоб шапочка опинилася згори.'] },
    { h: 'Дошка', p: ['Звичайна дошка — 5 стовпців і 6 рядів; у варіантах буває 5 × 7, 6 × 8 і 6 × 6. Світлі кубики (сторона a) стоять у нижньому ряду, темні (сторона b) — у верхньому, усі шапочкою догори. Починають світлі.', 'На наших дошках шапочку намальовано так: велика червона крапка — шапочка згори; червона смужка біля краю — шапочка дивиться в той бік; порожнє кільце — шапочка знизу.'], d: 'perekati.start' },
    { h: 'Хід', demos: ['perekati.roll', 'perekati.blocked'], p: ['Переверніть один свій кубик через ребро на сусідню клітинку — вперед, назад, ліворуч чи праворуч. Клітинка має бути вільною й на дошці: стрибати, ходити навскіс, бити й пропускати хід не можна.', 'Під час перекочування кубик повертається: шапочка згори йде в бік руху; шапочка, що дивилася туди, опиняється знизу; шапочка знизу виходить на протилежний бік; шапочка, що дивилася назад, піднімається нагору. Чотири перекочування в один бік повертають шапочку на місце.'], d: 'perekati.roll' },
    { h: 'Удома', p: ['Кубик, що стоїть у початковому ряду суперника шапочкою догори, — удома: він зараховується вам і більше не ходить. Якщо шапочка в цьому ряду дивиться деінде, кубик ще не вдома й котиться далі.'], d: 'perekati.home' },
    { h: 'Без гойдання', p: ['Не можна котити той самий кубик туди-назад більше ніж двічі поспіль: після «туди-назад-туди-назад» наступне «туди» заборонене.'] },
    { h: 'Кінець гри', p: ['Ви одразу перемагаєте, коли всі ваші кубики вдома. Якщо в того, чия черга, немає жодного ходу, гра зупиняється й перемагає той, у кого вдома більше кубиків; за рівності — нічия. Так само буває, коли та сама позиція (усі кубики, шапочки й черга ходу) трапляється втретє. На нашому сайті партія закінчується й тоді, коли за 50 ходів кожного гравця жоден кубик не дістався додому, а в одного з гравців удома більше кубиків: він і перемагає.'] },
  ],
};

export const page = {
  origin: {
    en: ['Perekati-pole comes in a box from the Soviet publisher “Malysh”, 1987; its author and artist was A. Yu. Korovin. Each player has five cubes of his colour, and one face of every cube is of the other colour: the hat.', 'We play it on the boards it has been known on: the box’s green 5 × 6 board, the 5 × 7 board drawn in the rules leaflet, a large board with six cubes a side and 6 × 6 cells between the start rows, and a printed 6 × 6 paper board with fold-up cubes.'],
    ru: ['«Перекати-поле» — игра из коробки издательства «Малыш», 1987 год; её автор и художник — А. Ю. Коровин. У каждого игрока пять кубиков своего цвета, и у каждого кубика одна грань другого цвета — шапочка.', 'Мы играем на тех полях, на которых её знают: зелёное поле 5 × 6 из коробки, поле 5 × 7 с рисунка в листке правил, большое поле по шесть кубиков с 6 × 6 клетками между стартовыми рядами и печатное бумажное поле 6 × 6 с кубиками-развёртками.'],
    uk: ['«Перекоти-поле» — гра з коробки видавництва «Малиш», 1987 рік; її автор і художник — А. Ю. Коровін. Кожен гравець має п’ять кубиків свого кольору, і в кожного кубика одна грань іншого кольору — шапочка.', 'Ми граємо на тих полях, на яких її знають: зелене поле 5 × 6 з коробки, поле 5 × 7 з малюнка в аркуші правил, велике поле по шість кубиків із 6 × 6 клітинками між стартовими рядами й друковане паперове поле 6 × 6 з кубиками-розгортками.'],
  },
  faq: [
    {
      q: { en: 'Can a cube jump over another?', ru: 'Может ли кубик перепрыгнуть через другой?', uk: 'Чи може кубик перестрибнути через інший?' },
      a: {
        en: 'No. A cube only tips over an edge onto a free cell next to it, in front, behind or to the side, never diagonally. If the way is taken, go round.',
        ru: 'Нет. Кубик только перекатывается через ребро на соседнюю свободную клетку — вперёд, назад или вбок, но не по диагонали. Если путь занят, его обходят.',
        uk: 'Ні. Кубик лише перекочується через ребро на сусідню вільну клітинку — вперед, назад чи вбік, але не навскіс. Якщо шлях зайнятий, його обходять.',
      },
    },
    {
      q: { en: 'What if nobody can move?', ru: 'А если ходить некуда?', uk: 'А якщо ходити нікуди?' },
      a: {
        en: 'When the player to move has no legal move — his cubes are boxed in, home, or held by the no-rocking rule — the game stops. Whoever has more cubes home, on the far row with the hat up, wins; equal counts are a draw.',
        ru: 'Если у того, чья очередь, нет ни одного хода — его кубики заперты, уже дома или их держит запрет на качание, — игра останавливается. Побеждает тот, у кого больше кубиков дома, в дальнем ряду шапочкой вверх; поровну — ничья.',
        uk: 'Якщо в того, чия черга, немає жодного ходу — його кубики замкнені, уже вдома або їх тримає заборона гойдання, — гра зупиняється. Перемагає той, у кого більше кубиків удома, у дальньому ряду шапочкою догори; порівну — нічия.',
      },
    },
    {
      q: { en: 'Does a cube that reaches the far row count at once?', ru: 'Засчитывается ли кубик, как только дошёл до дальнего ряда?', uk: 'Чи зараховується кубик, щойно дійшов до дальнього ряду?' },
      a: {
        en: 'Only with its hat on top. Then it is home and never moves again; with the hat anywhere else it keeps rolling.',
        ru: 'Только шапочкой вверх. Тогда он дома и больше не ходит; если шапочка смотрит в другую сторону, он катится дальше.',
        uk: 'Лише шапочкою догори. Тоді він удома й більше не ходить; якщо шапочка дивиться деінде, він котиться далі.',
      },
    },
    PLAY_THE_COMPUTER,
  ],
  names: {
    ru: ['Перекати-поле', 'перекати-поле настольная игра', 'игра с кубиками «Малыш»', 'советская игра с кубиками', 'перекатывать кубики'],
    uk: ['Перекоти-поле', 'Перекоти-поле настільна гра', 'гра з кубиками «Малиш»', 'радянська гра з кубиками'],
    en: ['Perekati-pole', 'Rolling cubes', 'Soviet rolling cube game'],
  },
};

export const demos = {
  'perekati.roll': {
    game: 'perekati',
    variant: 'malysh',
    steps: [
      {
        position: 'uuuuu/...../...../...../...../UUUUU a',
        caption: {
          en: 'Watch the light cube on c1. Its hat is on top: the big red dot.',
          ru: 'Следите за светлым кубиком на c1. Его шапочка сверху — большая красная точка.',
          uk: 'Стежте за світлим кубиком на c1. Його шапочка згори — велика червона крапка.',
        },
      },
      {
        moves: ['c1c2', 'a6a5'],
        last: 'c1c2',
        position: '.uuuu/s..../...../...../..N../UU.UU a',
        caption: {
          en: 'Light tips it forward onto c2. The top face falls the way the cube rolls, so the hat now faces forward: a bar on the far edge. (Dark answers a6–a5.)',
          ru: 'Светлые перекатывают его вперёд на c2. Верхняя грань падает туда, куда катится кубик, и шапочка теперь смотрит вперёд — полоска у дальнего края. (Тёмные отвечают a6–a5.)',
          uk: 'Світлі перекочують його вперед на c2. Верхня грань падає туди, куди котиться кубик, і шапочка тепер дивиться вперед — смужка біля дальнього краю. (Темні відповідають a6–a5.)',
        },
      },
      {
        moves: ['c2c3', 'a5a4'],
        last: 'c2c3',
        position: '.uuuu/...../d..../..D../...../UU.UU a',
        caption: {
          en: 'One more roll forward, to c3: the face that looked forward goes underneath. Only a hollow ring shows where the hat is hidden.',
          ru: 'Ещё один перекат вперёд, на c3: грань, смотревшая вперёд, уходит вниз. Шапочку не видно — о ней напоминает пустое кольцо.',
          uk: 'Ще одне перекочування вперед, на c3: грань, що дивилася вперед, іде вниз. Шапочки не видно — про неї нагадує порожнє кільце.',
        },
      },
      {
        moves: ['c3c4', 'e6e5'],
        last: 'c3c4',
        position: '.uuu./....s/d.S../...../...../UU.UU a',
        caption: {
          en: 'To c4: the bottom face comes up at the back. The bar is on the near edge now, the hat facing backwards.',
          ru: 'На c4: нижняя грань поднимается сзади. Полоска теперь у ближнего края — шапочка смотрит назад.',
          uk: 'На c4: нижня грань піднімається ззаду. Смужка тепер біля ближнього краю — шапочка дивиться назад.',
        },
      },
      {
        moves: ['c4c5', 'e5e4'],
        last: 'c4c5',
        position: '.uuu./..U../d...d/...../...../UU.UU a',
        caption: {
          en: 'To c5: the back face rolls over the top and the hat is up again. Four rolls the same way bring it all the way round.',
          ru: 'На c5: задняя грань перекатывается наверх, и шапочка снова сверху. Четыре переката в одну сторону — полный оборот.',
          uk: 'На c5: задня грань перекочується нагору, і шапочка знову згори. Чотири перекочування в один бік — повний оберт.',
        },
      },
    ],
    try: {
      position: '.uuu./..U../d...d/...../...../UU.UU a',
      legal: ['a1a2', 'b1b2', 'b1c1', 'c5b5', 'c5c4', 'c5d5', 'd1c1', 'd1d2', 'e1e2'],
      answers: { c5d5: '.uuu./...E./d...d/...../...../UU.UU b' },
      prompt: {
        en: 'Your turn: roll the cube on c5 so that its hat ends up facing right.',
        ru: 'Ваш ход: перекатите кубик с c5 так, чтобы шапочка оказалась справа.',
        uk: 'Ваш хід: перекотіть кубик із c5 так, щоб шапочка опинилася праворуч.',
      },
      right: {
        en: 'Right: rolled to the right, the hat on top tips over to the right-hand face.',
        ru: 'Верно: при перекате вправо шапочка сверху падает на правую грань.',
        uk: 'Правильно: коли котити праворуч, шапочка згори падає на праву грань.',
      },
      wrong: {
        en: 'Not this one. The hat is on top, and a top hat falls the way the cube rolls: roll the c5 cube to the right.',
        ru: 'Не то. Шапочка сверху, а верхняя грань падает туда, куда катится кубик: катите кубик с c5 вправо.',
        uk: 'Не те. Шапочка згори, а верхня грань падає туди, куди котиться кубик: котіть кубик із c5 праворуч.',
      },
    },
  },

  'perekati.blocked': {
    game: 'perekati',
    variant: 'malysh',
    steps: [
      {
        position: '.uuuu/...../...../...../u..../UUUUU a',
        caption: {
          en: 'Light to move. The cube on a1 is boxed in: a dark cube stands on a2, a light one on b1, and the other two sides are off the board. Cubes never jump, so it cannot move now.',
          ru: 'Ход светлых. Кубик на a1 заперт: на a2 тёмный кубик, на b1 светлый, а с двух других сторон край доски. Прыгать кубики не умеют, так что сейчас он ходить не может.',
          uk: 'Хід світлих. Кубик на a1 замкнений: на a2 темний кубик, на b1 світлий, а з двох інших боків край дошки. Стрибати кубики не вміють, тож зараз він ходити не може.',
        },
      },
      {
        moves: ['b1b2', 'c6c5'],
        last: 'b1b2',
        position: '.u.uu/..s../...../...../uN.../U.UUU a',
        caption: {
          en: 'So light rolls another cube: b1 goes up to b2, and the cell beside a1 is free. (Dark answers c6–c5.)',
          ru: 'Поэтому светлые катят другой кубик: b1 уходит на b2, и клетка рядом с a1 освобождается. (Тёмные отвечают c6–c5.)',
          uk: 'Тому світлі котять інший кубик: b1 іде на b2, і клітинка поруч із a1 звільняється. (Темні відповідають c6–c5.)',
        },
      },
    ],
    try: {
      position: '.u.uu/..s../...../...../uN.../U.UUU a',
      legal: ['a1b1', 'b2b1', 'b2b3', 'b2c2', 'c1b1', 'c1c2', 'd1d2', 'e1e2'],
      answers: { a1b1: '.u.uu/..s../...../...../uN.../.EUUU b' },
      prompt: {
        en: 'Your turn: get the cube on a1 out of its corner.',
        ru: 'Ваш ход: выведите кубик с a1 из угла.',
        uk: 'Ваш хід: виведіть кубик з a1 із кута.',
      },
      right: {
        en: 'Right: a2 is still taken, so b1 is the only way out for a1.',
        ru: 'Верно: a2 всё ещё занята, поэтому у a1 один выход — на b1.',
        uk: 'Правильно: a2 досі зайнята, тож у a1 один вихід — на b1.',
      },
      wrong: {
        en: 'That is a legal move, but the a1 cube is still in its corner. Pick the cube on a1 and roll it to the free cell.',
        ru: 'Такой ход возможен, но кубик на a1 остался в углу. Выберите кубик на a1 и катите его на свободную клетку.',
        uk: 'Такий хід можливий, але кубик на a1 лишився в куті. Оберіть кубик на a1 і котіть його на вільну клітинку.',
      },
    },
  },
};
