// Mill in the client, besides its board: the rules retold in ru, uk and en with the
// diagrams they show, what its game page says, and the demonstrations that play the rules
// out. Data only (tests read it in Node); `index.js` pairs it with the board renderer.

import { PLAY_THE_COMPUTER } from './common.js';

export const diagrams = {
  'mill.start': { game: 'mill', variant: 'troika', position: '.../.../.../....../.../.../... a 9 9 0000 0000 0' },
  'mill.row': { game: 'mill', variant: 'troika', position: 'aaa/.../.../....../.../.b./..b b 6 6 0001 0000 0', last: 'g7xf6' },
  'mill.board-diagonal': { game: 'mill', variant: 'troika-diagonal', position: '.../.../.../....../.../.../... a 9 9 0000 0000 0' },
};

export const rules = {
  en: [
    { h: 'What it is', p: ['The mill game (Nine Men’s Morris) as sold in the “Troika” box: two players, nine tokens each, on a board of three nested squares with 24 points.'], d: 'mill.start' },
    { h: 'Placing and moving', p: ['Light (side a) starts. While you still have tokens in hand, a move places one on any empty point. Once your hand is empty, a move slides one of your tokens along a line to a neighbouring empty point. When you are down to three tokens, you may instead fly one to any empty point.'] },
    { h: 'Rows of three', demos: ['mill.row'], p: ['When your placed or moved token completes three of yours on one line, remove one opponent token of your choice (two lines at once — two tokens). Each line rewards you only once per game: re-forming a line you have already used removes nothing. Tokens standing in a row are not protected.'], d: 'mill.row' },
    { h: 'Winning and draws', p: ['You win when the opponent is down to two tokens (in hand and on the board together), or when the opponent has no tokens in hand and cannot move. It is a draw when both sides have exactly three tokens left, when the same position occurs for the third time, or after 100 moves in a row without a removal.'] },
    { h: 'Variants', p: ['Long moves: a token may slide over one or two empty points along a line, and also along the four corner diagonals. Free: even with tokens in hand you may step a token already on the board. Diagonal: the four corner diagonals count as lines (a corner can complete three rows at once), and a token may jump over the occupied middle of a line to its empty far end.'], d: 'mill.board-diagonal' },
  ],
  ru: [
    { h: 'Что это за игра', p: ['Мельница в том виде, в каком она продаётся в коробке «Тройка»: двое игроков, по девять фишек, доска из трёх вложенных квадратов с 24 точками.'], d: 'mill.start' },
    { h: 'Выставление и ходы', p: ['Начинают светлые (сторона a). Пока у вас есть фишки в запасе, ход — это выставить одну фишку на любую свободную точку. Когда запас кончился, ход — передвинуть свою фишку по линии на соседнюю свободную точку. Когда у вас осталось три фишки, можно вместо этого «перелететь» фишкой на любую свободную точку.'] },
    { h: 'Тройки', demos: ['mill.row'], p: ['Если выставленная или передвинутая фишка замкнула три ваши фишки на одной линии, снимите любую фишку соперника (две линии сразу — две фишки). Каждая линия приносит награду лишь раз за партию: повторная тройка на уже использованной линии ничего не снимает. Фишки в тройке не защищены.'], d: 'mill.row' },
    { h: 'Победа и ничья', p: ['Вы побеждаете, когда у соперника осталось две фишки (в запасе и на доске вместе) или когда у него нет фишек в запасе и нет ходов. Ничья — когда у обоих ровно по три фишки, когда одна и та же позиция повторилась в третий раз или после 100 ходов подряд без снятия фишек.'] },
    { h: 'Варианты', p: ['Длинные ходы: фишка скользит по линии через одну или две свободные точки, а также по четырём угловым диагоналям. Свободный: даже с фишками в запасе можно сходить фишкой на доске. Диагональный: четыре угловые диагонали считаются линиями (угол может замкнуть сразу три тройки), а фишка может перепрыгнуть через занятую середину линии на свободный дальний конец.'], d: 'mill.board-diagonal' },
  ],
  uk: [
    { h: 'Що це за гра', p: ['Млин у тому вигляді, як його продають у коробці «Трійка»: двоє гравців, по дев’ять фішок, дошка з трьох вкладених квадратів із 24 точками.'], d: 'mill.start' },
    { h: 'Виставлення й ходи', p: ['Починають світлі (сторона a). Поки у вас є фішки в запасі, хід — виставити одну фішку на будь-яку вільну точку. Коли запас скінчився, хід — пересунути свою фішку лінією на сусідню вільну точку. Коли у вас лишилося три фішки, можна натомість «перелетіти» фішкою на будь-яку вільну точку.'] },
    { h: 'Трійки', demos: ['mill.row'], p: ['Якщо виставлена чи пересунута фішка замкнула три ваші фішки на одній лінії, зніміть будь-яку фішку суперника (дві лінії одразу — дві фішки). Кожна лінія дає нагороду лише раз за партію: повторна трійка на вже використаній лінії нічого не знімає. Фішки в трійці не захищені.'], d: 'mill.row' },
    { h: 'Перемога й нічия', p: ['Ви перемагаєте, коли в суперника лишилося дві фішки (у запасі й на дошці разом) або коли в нього немає фішок у запасі й немає ходів. Нічия — коли в обох рівно по три фішки, коли та сама позиція повторилася втретє або після 100 ходів поспіль без знімання фішок.'] },
    { h: 'Варіанти', p: ['Довгі ходи: фішка ковзає лінією через одну чи дві вільні точки, а також чотирма кутовими діагоналями. Вільний: навіть із фішками в запасі можна походити фішкою на дошці. Діагональний: чотири кутові діагоналі вважаються лініями (кут може замкнути одразу три трійки), а фішка може перестрибнути через зайняту середину лінії на вільний дальній кінець.'], d: 'mill.board-diagonal' },
  ],
};

export const page = {
  origin: {
    en: ['Our mill is the one from the “Troika” box (Drofa Media, 2013). There it is played with tokens showing horses on a board folded from four parts, each player taking nine tokens of one kind of horse. Elsewhere the game is known as Nine Men’s Morris.', 'The box gives three more ways to play, and so do we: long moves along a line, moving from the first turn, and rows along the diagonals with jumps.'],
    ru: ['Наша мельница — из коробки «Тройка» (Дрофа Медиа, 2013). Там в неё играют жетонами с лошадками на поле из четырёх частей, и каждый игрок берёт девять жетонов с лошадкой одного вида.', 'В коробке есть ещё три способа игры, и у нас тоже: дальние ходы по линии, ходы с первого же хода и ряды по диагоналям с прыжками.'],
    uk: ['Наш млин — із коробки «Трійка» (Дрофа Медіа, 2013). Там у нього грають жетонами з конячками на полі з чотирьох частин, і кожен гравець бере дев’ять жетонів із конячкою одного виду.', 'У коробці є ще три способи гри, і в нас теж: далекі ходи лінією, ходи з першого ж ходу та ряди по діагоналях зі стрибками.'],
  },
  faq: [
    {
      q: { en: 'Can a token jump?', ru: 'Может ли фишка прыгать?', uk: 'Чи може фішка стрибати?' },
      a: {
        en: 'Not in the classic game: it steps to a free neighbouring point. With only three tokens left it may fly to any free point, and in the diagonal variant it may jump over the taken middle of a line.',
        ru: 'В классике — нет: она шагает на соседнюю свободную точку. Когда осталось три фишки, можно перелететь на любую свободную точку, а в диагональном варианте — перепрыгнуть через занятую середину линии.',
        uk: 'У класиці — ні: вона ступає на сусідню вільну точку. Коли лишилося три фішки, можна перелетіти на будь-яку вільну точку, а в діагональному варіанті — перестрибнути через зайняту середину лінії.',
      },
    },
    {
      q: { en: 'What if nobody can move?', ru: 'А если ходить некуда?', uk: 'А якщо ходити нікуди?' },
      a: {
        en: 'A player with no tokens in hand and no move on his turn loses: locking in all the opponent’s tokens is a win. If both sides are down to three tokens, the game is a draw.',
        ru: 'Игрок без фишек в запасе, которому нечем ходить, проигрывает: запереть все фишки соперника — это победа. Если у обоих осталось по три фишки, это ничья.',
        uk: 'Гравець без фішок у запасі, якому нічим ходити, програє: замкнути всі фішки суперника — це перемога. Якщо в обох лишилося по три фішки, це нічия.',
      },
    },
    {
      q: { en: 'Can I open and close the same row again and again?', ru: 'Можно ли снова и снова собирать один и тот же ряд?', uk: 'Чи можна знову й знову збирати той самий ряд?' },
      a: {
        en: 'You can, but as in the box’s rules a line removes a token only the first time you complete it.',
        ru: 'Можно, но, как и в правилах из коробки, линия снимает фишку только в первый раз.',
        uk: 'Можна, але, як і в правилах із коробки, лінія знімає фішку лише першого разу.',
      },
    },
    PLAY_THE_COMPUTER,
  ],
  names: {
    ru: ['Мельница', 'Тройка', 'мельница настольная игра', 'игра в мельницу'],
    uk: ['Млин', 'Трійка', 'млин настільна гра', 'гра в млин'],
    en: ['Mill', 'Nine Men’s Morris', 'Troika mill game'],
  },
};

export const demos = {
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
};
