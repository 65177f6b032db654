// The rules of the five games, retold in our own words in Russian, Ukrainian and English.
// Each section may name a diagram, drawn with the same board renderer as the live tables.

// Builds a tumbleweed position from a few stacks, so the diagrams stay readable here.
export function tumbleweedPosition(n, stacks, phase, passes = 0) {
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

export const DIAGRAMS = {
  'perekati.start': { game: 'perekati', variant: 'malysh', position: 'uuuuu/...../...../...../...../UUUUU a' },
  'perekati.roll': { game: 'perekati', variant: 'malysh', position: 'uuuuu/...../...../...../..N../UU.UU b', last: 'c1c2' },
  'perekati.home': { game: 'perekati', variant: 'malysh', position: 'U.uuu/.u.../...../...s./...../.UUUU b' },
  'tumbleweed.start': { game: 'tumbleweed', variant: 'hex6', position: tumbleweedPosition(6, { f6: 'n2' }, 'setup') },
  'tumbleweed.sight': {
    game: 'tumbleweed',
    variant: 'hex6',
    position: tumbleweedPosition(6, { f6: 'n2', c3: 'r1', i9: 'w1', d6: 'r2', h5: 'w2', f9: 'r1' }, 'w'),
    territory: true,
  },
  'cephalopod.before': { game: 'cephalopod', variant: '3x3', position: '.a1./b2.a3/... b' },
  'cephalopod.after': { game: 'cephalopod', variant: '3x3', position: '.../.b6./... a', last: 'b2:a2,b3,c2' },
  'mill.start': { game: 'mill', variant: 'troika', position: '.../.../.../....../.../.../... a 9 9 0000 0000 0' },
  'mill.row': { game: 'mill', variant: 'troika', position: 'aaa/.../.../....../.../.b./..b b 6 6 0001 0000 0', last: 'g7xf6' },
  'mill.board-diagonal': { game: 'mill', variant: 'troika-diagonal', position: '.../.../.../....../.../.../... a 9 9 0000 0000 0' },
  'white-rabbit.deal': { game: 'white-rabbit', variant: 'classic', position: 'k1=3,k2=5,k3=1,r1=2,r2=2,r3=6 k4=4,k5=6,r4=1,r5=5,w=2 6 - -' },
  'white-rabbit.won': { game: 'white-rabbit', variant: 'classic', position: 'k1=4,k2=4,k3=4,k4=4,r2=4,r3=4 k5=6,r1=3,r4=2,r5=5,w=3 5 - r1', last: 'k4~r1' },
};

export const RULES = {
  perekati: {
    en: [
      { h: 'What it is', p: ['A race of rolling cubes from the Soviet children’s box “Malysh” (1987). Each cube has one marked face, the hat. You win by bringing your cubes to the far side of the board so that they arrive with the hat on top.'] },
      { h: 'The board', p: ['The standard board has 5 columns and 6 rows; other variants use 5 × 7, 6 × 8 or 6 × 6. Light cubes (side a) start on the bottom row, dark cubes (side b) on the top row, all with the hat up. Light moves first.', 'On our boards the hat is drawn like this: a big red dot — the hat is on top; a red bar along one edge — the hat faces that way; a hollow ring — the hat is underneath.'], d: 'perekati.start' },
      { h: 'A move', demos: ['perekati.roll', 'perekati.blocked'], p: ['Tip one of your cubes over an edge onto the neighbouring cell in front, behind, left or right. The cell must be empty and on the board: no jumps, no diagonals, no captures, no passing.', 'Rolling turns the cube: a hat on top ends up facing the direction of the roll; a hat facing that way goes underneath; a hat underneath comes up on the opposite side; a hat facing backwards comes to the top. Four rolls the same way bring the hat back.'], d: 'perekati.roll' },
      { h: 'Home', p: ['A cube that stands on the opponent’s starting row with its hat on top is home: it counts for you and does not move again. On that row with the hat anywhere else, it is not home yet and keeps rolling.'], d: 'perekati.home' },
      { h: 'No rocking', p: ['You may not roll the same cube back and forth more than twice in a row: after there-back-there-back, the next “there” is forbidden.'] },
      { h: 'The end', p: ['You win at once when all your cubes are home. If the player to move has no legal move, the game stops and whoever has more cubes home wins; equal counts are a draw. The same happens when one position (all cubes, hats and the side to move) appears for the third time.'] },
    ],
    ru: [
      { h: 'Что это за игра', p: ['Гонка катящихся кубиков из советской настольной игры «Малыш» (1987). У каждого кубика одна грань помечена — это шапочка. Побеждает тот, кто докатит свои кубики до дальнего края доски так, чтобы шапочка оказалась сверху.'] },
      { h: 'Доска', p: ['Обычная доска — 5 столбцов и 6 рядов; в вариантах бывает 5 × 7, 6 × 8 и 6 × 6. Светлые кубики (сторона a) стоят в нижнем ряду, тёмные (сторона b) — в верхнем, все шапочкой вверх. Начинают светлые.', 'На наших досках шапочка нарисована так: большая красная точка — шапочка сверху; красная полоска у края — шапочка смотрит в эту сторону; пустое кольцо — шапочка снизу.'], d: 'perekati.start' },
      { h: 'Ход', demos: ['perekati.roll', 'perekati.blocked'], p: ['Переверните один свой кубик через ребро на соседнюю клетку — вперёд, назад, влево или вправо. Клетка должна быть свободной и на доске: прыгать, ходить по диагонали, бить и пропускать ход нельзя.', 'При перекатывании кубик поворачивается: шапочка сверху уходит в сторону движения; шапочка, смотревшая туда, оказывается снизу; шапочка снизу выходит на противоположную сторону; шапочка, смотревшая назад, поднимается наверх. Четыре переката в одну сторону возвращают шапочку на место.'], d: 'perekati.roll' },
      { h: 'Дома', p: ['Кубик, стоящий в исходном ряду соперника шапочкой вверх, — дома: он засчитывается вам и больше не ходит. Если шапочка в этом ряду смотрит в другую сторону, кубик ещё не дома и катится дальше.'], d: 'perekati.home' },
      { h: 'Без качания', p: ['Нельзя катать один и тот же кубик туда-обратно больше двух раз подряд: после «туда-обратно-туда-обратно» следующее «туда» запрещено.'] },
      { h: 'Конец игры', p: ['Вы сразу побеждаете, когда все ваши кубики дома. Если у того, чья очередь, нет ни одного хода, игра останавливается и побеждает тот, у кого дома больше кубиков; при равенстве — ничья. То же самое происходит, когда одна и та же позиция (все кубики, шапочки и очередь хода) встречается в третий раз.'] },
    ],
    uk: [
      { h: 'Що це за гра', p: ['Перегони кубиків, що перекочуються, з радянської настільної гри «Малиш» (1987). У кожного кубика одна грань позначена — це шапочка. Перемагає той, хто докотить свої кубики до дальнього краю дошки так, щоб шапочка опинилася згори.'] },
      { h: 'Дошка', p: ['Звичайна дошка — 5 стовпців і 6 рядів; у варіантах буває 5 × 7, 6 × 8 і 6 × 6. Світлі кубики (сторона a) стоять у нижньому ряду, темні (сторона b) — у верхньому, усі шапочкою догори. Починають світлі.', 'На наших дошках шапочку намальовано так: велика червона крапка — шапочка згори; червона смужка біля краю — шапочка дивиться в той бік; порожнє кільце — шапочка знизу.'], d: 'perekati.start' },
      { h: 'Хід', demos: ['perekati.roll', 'perekati.blocked'], p: ['Переверніть один свій кубик через ребро на сусідню клітинку — вперед, назад, ліворуч чи праворуч. Клітинка має бути вільною й на дошці: стрибати, ходити навскіс, бити й пропускати хід не можна.', 'Під час перекочування кубик повертається: шапочка згори йде в бік руху; шапочка, що дивилася туди, опиняється знизу; шапочка знизу виходить на протилежний бік; шапочка, що дивилася назад, піднімається нагору. Чотири перекочування в один бік повертають шапочку на місце.'], d: 'perekati.roll' },
      { h: 'Удома', p: ['Кубик, що стоїть у початковому ряду суперника шапочкою догори, — удома: він зараховується вам і більше не ходить. Якщо шапочка в цьому ряду дивиться деінде, кубик ще не вдома й котиться далі.'], d: 'perekati.home' },
      { h: 'Без гойдання', p: ['Не можна котити той самий кубик туди-назад більше ніж двічі поспіль: після «туди-назад-туди-назад» наступне «туди» заборонене.'] },
      { h: 'Кінець гри', p: ['Ви одразу перемагаєте, коли всі ваші кубики вдома. Якщо в того, чия черга, немає жодного ходу, гра зупиняється й перемагає той, у кого вдома більше кубиків; за рівності — нічия. Так само буває, коли та сама позиція (усі кубики, шапочки й черга ходу) трапляється втретє.'] },
    ],
  },

  tumbleweed: {
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
  },

  cephalopod: {
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
  },

  mill: {
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
  },

  'white-rabbit': {
    en: [
      { h: 'What it is', p: ['A dice puzzle for one player by Dmytro Polovynka. Twelve dice: five black, five red, one white and a green one that counts your turns down. Make all six dice on the table show the same number while the white die is in your hand.'] },
      { h: 'The deal', p: ['The green counter starts at 6. Three black and three red dice are rolled and laid in a row: the table. The other five (two black, two red and the white) form your hand and are rolled at the start of every turn.'], d: 'white-rabbit.deal' },
      { h: 'Your turn', demos: ['white-rabbit.swap'], p: ['During a turn you may do as many actions as you like:', 'Swap a die from your hand with a die on the table if they are of different colours and their values are next to each other (1 and 2, 4 and 5…; 6 and 1 also count as neighbours, except in the “no wrap” variant). Each die keeps its value and takes the other’s place.', 'Reroll the die that the last swap brought into your hand — once, and only straight after that swap.', 'End the turn: the green counter goes down by one and your hand is rolled again. Ending a turn with the counter at 1 loses the game.', 'You may not immediately swap back the two dice you have just swapped (unless a reroll brought the die back to its old value).'] },
      { h: 'Winning', p: ['You win the moment all six table dice show the same value while the white die is in your hand. Your score is the number on the green counter: the sooner, the better.'], d: 'white-rabbit.won' },
    ],
    ru: [
      { h: 'Что это за игра', p: ['Головоломка с кубиками для одного игрока, придуманная Дмитрием Половинкой. Двенадцать кубиков: пять чёрных, пять красных, один белый и зелёный, который отсчитывает ходы. Нужно, чтобы все шесть кубиков на столе показали одно число, пока белый кубик у вас в руке.'] },
      { h: 'Раздача', p: ['Зелёный счётчик ставится на 6. Три чёрных и три красных кубика бросают и выкладывают в ряд — это стол. Остальные пять (два чёрных, два красных и белый) — ваша рука; их бросают в начале каждого хода.'], d: 'white-rabbit.deal' },
      { h: 'Ваш ход', demos: ['white-rabbit.swap'], p: ['За ход можно сделать сколько угодно действий:', 'Обменять кубик из руки на кубик со стола, если они разного цвета, а их значения соседние (1 и 2, 4 и 5…; 6 и 1 тоже соседи, кроме варианта «без перехода»). Каждый кубик сохраняет своё значение и встаёт на место другого.', 'Перебросить кубик, который последний обмен принёс в руку, — один раз и только сразу после этого обмена.', 'Закончить ход: зелёный счётчик уменьшается на один, а рука бросается заново. Если закончить ход при счётчике 1, партия проиграна.', 'Нельзя сразу же обменять обратно два только что обменянных кубика (разве что переброс вернул кубику прежнее значение).'] },
      { h: 'Победа', p: ['Вы побеждаете, как только все шесть кубиков на столе показывают одно значение, а белый кубик в руке. Ваш счёт — число на зелёном счётчике: чем раньше, тем лучше.'], d: 'white-rabbit.won' },
    ],
    uk: [
      { h: 'Що це за гра', p: ['Головоломка з кубиками для одного гравця, яку вигадав Дмитро Половинка. Дванадцять кубиків: п’ять чорних, п’ять червоних, один білий і зелений, що відлічує ходи. Треба, щоб усі шість кубиків на столі показали одне число, поки білий кубик у вас у руці.'] },
      { h: 'Роздача', p: ['Зелений лічильник ставлять на 6. Три чорні й три червоні кубики кидають і викладають у ряд — це стіл. Решта п’ять (два чорні, два червоні й білий) — ваша рука; їх кидають на початку кожного ходу.'], d: 'white-rabbit.deal' },
      { h: 'Ваш хід', demos: ['white-rabbit.swap'], p: ['За хід можна зробити скільки завгодно дій:', 'Обміняти кубик із руки на кубик зі столу, якщо вони різного кольору, а їхні значення сусідні (1 і 2, 4 і 5…; 6 і 1 теж сусіди, окрім варіанта «без переходу»). Кожен кубик зберігає своє значення й стає на місце іншого.', 'Перекинути кубик, який останній обмін приніс у руку, — один раз і лише одразу після цього обміну.', 'Закінчити хід: зелений лічильник зменшується на один, а руку кидають знову. Якщо закінчити хід за лічильника 1, партію програно.', 'Не можна одразу обміняти назад два щойно обміняні кубики (хіба що перекидання повернуло кубику колишнє значення).'] },
      { h: 'Перемога', p: ['Ви перемагаєте, щойно всі шість кубиків на столі показують одне значення, а білий кубик у руці. Ваш рахунок — число на зеленому лічильнику: що раніше, то краще.'], d: 'white-rabbit.won' },
    ],
  },
};
