// The rules played out on a real board: each demonstration is a few positions, each reached
// from the one before by real moves, with a caption in ru, uk and en; then a position for the
// reader to try, its legal moves and the moves that answer the task, each with the position it
// leads to. Every position and move here was produced by the engines (`stolik referee`), and
// tests/browser/demos.test.mjs replays them all through the referee again.

import { tumbleweedPosition } from '../rules-text.js';

const TUMBLEWEED_START = tumbleweedPosition(6, { f6: 'n2', d9: 'r1', b4: 'r1', d3: 'w1', b7: 'w1' }, 'r');

export const DEMOS = {
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

  'cephalopod.capture': {
    game: 'cephalopod',
    variant: '3x3',
    steps: [
      {
        position: '.a1./b2.a3/... b',
        caption: {
          en: 'Dark to move. The empty centre touches three dice: 1 above, 2 on the left, 3 on the right. Any two or three of them add up to 6 or less.',
          ru: 'Ход тёмных. Пустой центр касается трёх кубиков: 1 сверху, 2 слева, 3 справа. Любые два или все три дают в сумме не больше 6.',
          uk: 'Хід темних. Порожній центр торкається трьох кубиків: 1 згори, 2 ліворуч, 3 праворуч. Будь-які два або всі три дають разом не більше 6.',
        },
      },
      {
        moves: ['b2:a2,b3'],
        last: 'b2:a2,b3',
        position: '.../.b3a3/... a',
        caption: {
          en: 'A die placed there must capture, and the player picks which dice. Here dark takes the 1 and the 2: they leave the board and the new die shows their sum, 3. The light 3 stays.',
          ru: 'Кубик, поставленный туда, обязан взять, а какие кубики — решает игрок. Здесь тёмные берут 1 и 2: они уходят с доски, а новый кубик показывает их сумму, 3. Светлая тройка остаётся.',
          uk: 'Кубик, поставлений туди, мусить узяти, а які кубики — вирішує гравець. Тут темні беруть 1 і 2: вони йдуть із дошки, а новий кубик показує їхню суму, 3. Світла трійка лишається.',
        },
      },
    ],
    try: {
      position: '.a1./b2.a3/... b',
      legal: ['a1', 'a3:a2,b3', 'b1', 'b2:a2,b3', 'b2:a2,b3,c2', 'b2:a2,c2', 'b2:b3,c2', 'c1', 'c3:b3,c2'],
      answers: { 'b2:a2,b3,c2': '.../.b6./... a' },
      prompt: {
        en: 'Your turn, as dark: place in the centre and take all three dice.',
        ru: 'Ваш ход за тёмных: поставьте кубик в центр и возьмите все три.',
        uk: 'Ваш хід за темних: поставте кубик у центр і візьміть усі три.',
      },
      right: {
        en: 'Right: 1 + 2 + 3 = 6, still within the limit, so all three go and your die shows 6.',
        ru: 'Верно: 1 + 2 + 3 = 6, это ещё в пределах, так что уходят все три, а ваш кубик показывает 6.',
        uk: 'Правильно: 1 + 2 + 3 = 6, це ще в межах, тож ідуть усі три, а ваш кубик показує 6.',
      },
      wrong: {
        en: 'That is a legal move, but not the one asked for. Place on the centre, then choose the option with all three dice.',
        ru: 'Такой ход возможен, но просили другой. Поставьте кубик в центр и выберите вариант со всеми тремя кубиками.',
        uk: 'Такий хід можливий, але просили інший. Поставте кубик у центр і оберіть варіант з усіма трьома кубиками.',
      },
    },
  },

  'mill.row': {
    game: 'mill',
    variant: 'troika',
    steps: [
      {
        position: 'aa./..b/.../.a..../.../.b./..b a 6 6 0000 0000 6',
        caption: {
          en: 'Light to place. Two light tokens stand on the top line, a7 and d7; its third point, g7, is free.',
          ru: 'Светлые выставляют фишку. На верхней линии уже две светлые фишки, a7 и d7, а её третья точка, g7, свободна.',
          uk: 'Світлі виставляють фішку. На верхній лінії вже дві світлі фішки, a7 і d7, а її третя точка, g7, вільна.',
        },
      },
      {
        moves: ['g7xf6'],
        last: 'g7xf6',
        position: 'aaa/.../.../.a..../.../.b./..b b 5 6 0001 0000 0',
        caption: {
          en: 'Light places on g7: three in a row. In the same move light takes one dark token off the board, any one it likes; here f6, marked with a cross.',
          ru: 'Светлые ставят на g7 — три в ряд. Тем же ходом они снимают с доски одну тёмную фишку, любую на выбор; здесь f6, она отмечена крестиком.',
          uk: 'Світлі ставлять на g7 — три в ряд. Тим самим ходом вони знімають із дошки одну темну фішку, будь-яку на вибір; тут f6, її позначено хрестиком.',
        },
      },
    ],
    try: {
      position: 'aa./..b/.../.a..../.../.b./..b a 6 6 0000 0000 6',
      legal: ['a1', 'a4', 'b2', 'b6', 'c3', 'c4', 'c5', 'd1', 'd3', 'd5', 'd6', 'e3', 'e4', 'e5', 'f2', 'f4', 'g4', 'g7xd2', 'g7xf6', 'g7xg1'],
      answers: {
        g7xd2: 'aaa/..b/.../.a..../.../.../..b b 5 6 0001 0000 0',
        g7xf6: 'aaa/.../.../.a..../.../.b./..b b 5 6 0001 0000 0',
        g7xg1: 'aaa/..b/.../.a..../.../.b./... b 5 6 0001 0000 0',
      },
      prompt: {
        en: 'Your turn, as light: make the row, then take off any dark token.',
        ru: 'Ваш ход за светлых: постройте ряд и снимите любую тёмную фишку.',
        uk: 'Ваш хід за світлих: побудуйте ряд і зніміть будь-яку темну фішку.',
      },
      right: {
        en: 'Right: a7, d7 and g7 make a row, and one dark token is gone. This line will not pay light again in this game.',
        ru: 'Верно: a7, d7 и g7 — ряд, и одной тёмной фишки нет. Больше эта линия светлым в этой партии ничего не принесёт.',
        uk: 'Правильно: a7, d7 і g7 — ряд, і однієї темної фішки немає. Більше ця лінія світлим у цій партії нічого не дасть.',
      },
      wrong: {
        en: 'That placement makes no row of three, so nothing is removed. Look at the top line.',
        ru: 'Такая фишка не замыкает ряд из трёх, и снимать нечего. Посмотрите на верхнюю линию.',
        uk: 'Така фішка не замикає ряд із трьох, і знімати нічого. Подивіться на верхню лінію.',
      },
    },
  },

  'white-rabbit.swap': {
    game: 'white-rabbit',
    variant: 'classic',
    steps: [
      {
        position: 'k1=4,k2=4,k3=2,r1=4,r2=4,r3=4 k4=4,k5=6,r4=3,r5=1,w=5 6 - -',
        caption: {
          en: 'Five table dice show 4; only the black 2 is in the way. A swap trades a hand die for a table die of another colour whose value is one more or one less.',
          ru: 'Пять кубиков на столе показывают 4, мешает только чёрная двойка. Обмен меняет кубик из руки на кубик со стола другого цвета, значение которого на один больше или меньше.',
          uk: 'П’ять кубиків на столі показують 4, заважає лише чорна двійка. Обмін міняє кубик із руки на кубик зі столу іншого кольору, значення якого на один більше чи менше.',
        },
      },
      {
        moves: ['r4~k3'],
        last: 'r4~k3',
        position: 'k1=4,k2=4,r4=3,r1=4,r2=4,r3=4 k3=2,k4=4,k5=6,r5=1,w=5 6 k3~r4 k3',
        caption: {
          en: 'The red 3 from the hand swaps with the black 2: each keeps its value and takes the other’s place.',
          ru: 'Красная тройка из руки меняется с чёрной двойкой: каждый кубик сохраняет значение и встаёт на место другого.',
          uk: 'Червона трійка з руки міняється з чорною двійкою: кожен кубик зберігає значення й стає на місце іншого.',
        },
      },
      {
        moves: ['reroll'],
        position: 'k1=4,k2=4,r4=3,r1=4,r2=4,r3=4 k3=3,k4=4,k5=6,r5=1,w=5 6 k3~r4 -',
        caption: {
          en: 'The black die that has just come into the hand may be rerolled, once and only now. Here the 2 comes up 3.',
          ru: 'Чёрный кубик, который только что пришёл в руку, можно перебросить — один раз и только сейчас. Здесь вместо 2 выпало 3.',
          uk: 'Чорний кубик, що щойно прийшов у руку, можна перекинути — один раз і лише зараз. Тут замість 2 випало 3.',
        },
      },
      {
        moves: ['k4~r4'],
        last: 'k4~r4',
        position: 'k1=4,k2=4,k4=4,r1=4,r2=4,r3=4 k3=3,k5=6,r4=3,r5=1,w=5 6 r4~k4 r4',
        caption: {
          en: 'Now the black 4 from the hand swaps with the red 3. All six table dice show 4 and the white die is in the hand: won, scoring the 6 on the green die.',
          ru: 'Теперь чёрная четвёрка из руки меняется с красной тройкой. Все шесть кубиков на столе показывают 4, а белый в руке — победа, счёт равен 6 на зелёном кубике.',
          uk: 'Тепер чорна четвірка з руки міняється з червоною трійкою. Усі шість кубиків на столі показують 4, а білий у руці — перемога, рахунок дорівнює 6 на зеленому кубику.',
        },
      },
    ],
    try: {
      position: 'k1=4,k2=4,r4=3,r1=4,r2=4,r3=4 k3=3,k4=4,k5=6,r5=1,w=5 6 k3~r4 -',
      legal: ['end', 'k3~r1', 'k3~r2', 'k3~r3', 'k4~r4', 'w~k1', 'w~k2', 'w~r1', 'w~r2', 'w~r3'],
      answers: { 'k4~r4': 'k1=4,k2=4,k4=4,r1=4,r2=4,r3=4 k3=3,k5=6,r4=3,r5=1,w=5 6 r4~k4 r4' },
      prompt: {
        en: 'Your turn: one swap wins this game. Find it.',
        ru: 'Ваш ход: эту партию выигрывает один обмен. Найдите его.',
        uk: 'Ваш хід: цю партію виграє один обмін. Знайдіть його.',
      },
      right: {
        en: 'Right: the black 4 replaces the red 3, the table shows six 4s, and the white die stayed in your hand.',
        ru: 'Верно: чёрная четвёрка встаёт вместо красной тройки, на столе шесть четвёрок, а белый кубик остался в руке.',
        uk: 'Правильно: чорна четвірка стає замість червоної трійки, на столі шість четвірок, а білий кубик лишився в руці.',
      },
      wrong: {
        en: 'Not that one: the table still needs a 4 in place of the red 3, and the white die must stay in the hand.',
        ru: 'Не то: на столе всё ещё нужна 4 вместо красной тройки, а белый кубик должен остаться в руке.',
        uk: 'Не те: на столі досі потрібна 4 замість червоної трійки, а білий кубик має лишитися в руці.',
      },
    },
  },
};
