// Cephalopod in the client, besides its board: the rules retold in ru, uk and en with the
// diagrams they show, what its game page says, and the demonstrations that play the rules
// out. Data only (tests read it in Node); `index.js` pairs it with the board renderer.

import { PLAY_THE_COMPUTER } from './common.js';

export const diagrams = {
  'cephalopod.before': { game: 'cephalopod', variant: '3x3', position: '.a1./b2.a3/... b' },
  'cephalopod.after': { game: 'cephalopod', variant: '3x3', position: '.../.b6./... a', last: 'b2:a2,b3,c2' },
};

export const rules = {
  en: [
    { h: 'What it is', p: ['A dice game by Mark Steere. Players take turns putting dice on a square board (5 × 5, or 3 × 3 for a quick game). Dice swallow their neighbours: when the board is full, the side with more dice wins.'] },
    { h: 'A move', p: ['Put one die of your colour on any empty cell. Look at the dice on the cells next to it (up, down, left, right — of either colour).', 'If some two or more of them add up to 6 or less, you must capture: choose such a group, take those dice off the board, and your new die shows their total. If several groups fit, you choose which one. If no group fits, your die shows 1.', 'You may always choose a cell where no capture is possible, even when captures exist elsewhere. There is no passing.'], d: 'cephalopod.before' },
    { h: 'Example', demos: ['cephalopod.capture'], p: ['Placing in the centre above, the player could take the 1 and the 2 (making a 3), the 1 and the 3 (a 4), the 2 and the 3 (a 5), or all three (a 6). Here all three were taken.'], d: 'cephalopod.after' },
    { h: 'The end', p: ['When every cell is filled the game is over; the player with more dice on the board wins. Both boards have an odd number of cells, so there are no draws.'] },
  ],
  ru: [
    { h: 'Что это за игра', p: ['Игра с кубиками Марка Стира. Игроки по очереди ставят кубики на квадратную доску (5 × 5 или 3 × 3 для быстрой партии). Кубики «поглощают» соседей; когда доска заполнена, побеждает тот, чьих кубиков больше.'] },
    { h: 'Ход', p: ['Поставьте один кубик своего цвета на любую пустую клетку. Посмотрите на кубики на соседних клетках (сверху, снизу, слева, справа — любого цвета).', 'Если два или больше из них в сумме дают 6 или меньше, вы обязаны взять: выберите такую группу, снимите эти кубики с доски, а ваш новый кубик покажет их сумму. Если подходит несколько групп, выбираете вы. Если ни одна не подходит, ваш кубик показывает 1.', 'Всегда можно выбрать клетку, где взятия нет, даже если взятия есть в других местах. Пропускать ход нельзя.'], d: 'cephalopod.before' },
    { h: 'Пример', demos: ['cephalopod.capture'], p: ['Ставя кубик в центр доски выше, игрок мог взять 1 и 2 (получится 3), 1 и 3 (4), 2 и 3 (5) или все три (6). Здесь взяты все три.'], d: 'cephalopod.after' },
    { h: 'Конец игры', p: ['Когда заполнены все клетки, игра окончена: побеждает тот, у кого на доске больше кубиков. На обеих досках нечётное число клеток, поэтому ничьих не бывает.'] },
  ],
  uk: [
    { h: 'Що це за гра', p: ['Гра з кубиками Марка Стіра. Гравці по черзі ставлять кубики на квадратну дошку (5 × 5 або 3 × 3 для швидкої партії). Кубики «поглинають» сусідів; коли дошка заповнена, перемагає той, чиїх кубиків більше.'] },
    { h: 'Хід', p: ['Поставте один кубик свого кольору на будь-яку порожню клітинку. Подивіться на кубики на сусідніх клітинках (згори, знизу, ліворуч, праворуч — будь-якого кольору).', 'Якщо два або більше з них разом дають 6 чи менше, ви мусите взяти: оберіть таку групу, зніміть ці кубики з дошки, а ваш новий кубик покаже їхню суму. Якщо підходить кілька груп, обираєте ви. Якщо жодна не підходить, ваш кубик показує 1.', 'Завжди можна обрати клітинку, де взяття немає, навіть якщо взяття є деінде. Пропускати хід не можна.'], d: 'cephalopod.before' },
    { h: 'Приклад', demos: ['cephalopod.capture'], p: ['Ставлячи кубик у центр дошки вище, гравець міг узяти 1 і 2 (вийде 3), 1 і 3 (4), 2 і 3 (5) або всі три (6). Тут узято всі три.'], d: 'cephalopod.after' },
    { h: 'Кінець гри', p: ['Коли заповнено всі клітинки, гру закінчено: перемагає той, у кого на дошці більше кубиків. На обох дошках непарна кількість клітинок, тож нічиїх не буває.'] },
  ],
};

export const page = {
  origin: {
    en: ['Cephalopod is a game by Mark Steere for two players and a supply of dice. It is played on a 5 × 5 board; the 3 × 3 board makes a game of a few minutes.'],
    ru: ['«Цефалопод» — игра Марка Стира для двоих и запаса кубиков. В неё играют на доске 5 × 5, а на доске 3 × 3 партия занимает несколько минут.'],
    uk: ['«Цефалопод» — гра Марка Стіра для двох і запасу кубиків. У неї грають на дошці 5 × 5, а на дошці 3 × 3 партія триває кілька хвилин.'],
  },
  faq: [
    {
      q: { en: 'Must I capture?', ru: 'Обязательно ли брать?', uk: 'Чи обов’язково брати?' },
      a: {
        en: 'Only where you place. A die put next to dice that can make a capture must capture (you choose which dice); but you may always put it on a cell where no capture is possible.',
        ru: 'Только там, куда ставите. Кубик рядом с кубиками, которые можно взять, обязан взять (какие — выбираете вы); но всегда можно поставить его на клетку, где взятия нет.',
        uk: 'Лише там, куди ставите. Кубик поруч із кубиками, які можна взяти, мусить узяти (які — обираєте ви); але завжди можна поставити його на клітинку, де взяття немає.',
      },
    },
    {
      q: { en: 'What if nobody can move?', ru: 'А если ходить некуда?', uk: 'А якщо ходити нікуди?' },
      a: {
        en: 'That happens only when the board is full, and then the game is over: more dice on the board wins. The boards have an odd number of cells, so there is no draw.',
        ru: 'Так бывает, только когда доска заполнена, и тогда игра окончена: побеждает тот, у кого больше кубиков. Клеток на досках нечётное число, так что ничьих нет.',
        uk: 'Так буває лише тоді, коли дошка заповнена, і тоді гру закінчено: перемагає той, у кого більше кубиків. Клітинок на дошках непарна кількість, тож нічиїх немає.',
      },
    },
    {
      q: { en: 'Are the dice rolled?', ru: 'Кубики бросают?', uk: 'Кубики кидають?' },
      a: {
        en: 'Never. A die shows 1 when placed, or the sum of the dice it captured. There is no luck in the game.',
        ru: 'Нет. Поставленный кубик показывает 1 или сумму взятых им кубиков. Удачи в игре нет.',
        uk: 'Ні. Поставлений кубик показує 1 або суму взятих ним кубиків. Удачі в грі немає.',
      },
    },
    PLAY_THE_COMPUTER,
  ],
  names: {
    ru: ['Цефалопод', 'Cephalopod', 'игра с кубиками Марка Стира'],
    uk: ['Цефалопод', 'Cephalopod', 'гра з кубиками Марка Стіра'],
    en: ['Cephalopod', 'Cephalopod dice game', 'Mark Steere Cephalopod'],
  },
};

export const demos = {
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
};
