// What each game's page says besides its rules: where the game comes from, the questions a
// newcomer asks, and the names people look for it by — in Russian, Ukrainian and English.
// The facts are those of the rule sources in /work/shared/seeds; the words are ours.

const COMPUTER = {
  en: 'Yes. Every two-player game here has a bot at three levels, Easy, Medium and Hard; or send a friend the link to a private table (tables have a chat and voice). No registration is needed: a guest can play at once.',
  ru: 'Да. В каждой игре для двоих здесь есть бот трёх уровней — лёгкий, средний и сложный; а можно отправить другу ссылку на закрытый стол (за столом есть чат и голос). Регистрация не нужна: гость может играть сразу.',
  uk: 'Так. У кожній грі для двох тут є бот трьох рівнів — легкий, середній і складний; а можна надіслати другові посилання на закритий стіл (за столом є чат і голос). Реєстрація не потрібна: гість може грати одразу.',
};

export const GAME_TEXT = {
  perekati: {
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
      { q: { en: 'Can I play the computer?', ru: 'Можно ли играть с компьютером?', uk: 'Чи можна грати з комп’ютером?' }, a: COMPUTER },
    ],
    names: {
      ru: ['Перекати-поле', 'перекати-поле настольная игра', 'игра с кубиками «Малыш»', 'советская игра с кубиками', 'перекатывать кубики'],
      uk: ['Перекоти-поле', 'Перекоти-поле настільна гра', 'гра з кубиками «Малиш»', 'радянська гра з кубиками'],
      en: ['Perekati-pole', 'Rolling cubes', 'Soviet rolling cube game'],
    },
  },

  tumbleweed: {
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
      { q: { en: 'Can I play the computer?', ru: 'Можно ли играть с компьютером?', uk: 'Чи можна грати з комп’ютером?' }, a: COMPUTER },
    ],
    names: {
      ru: ['Tumbleweed', 'Перекати-поле (игра Майка Запалы)', 'игра на шестиугольной доске', 'территориальная игра'],
      uk: ['Tumbleweed', 'Перекати-поле (гра Майка Запали)', 'гра на шестикутній дошці', 'територіальна гра'],
      en: ['Tumbleweed', 'Tumbleweed board game', 'hex territory game'],
    },
  },

  cephalopod: {
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
      { q: { en: 'Can I play the computer?', ru: 'Можно ли играть с компьютером?', uk: 'Чи можна грати з комп’ютером?' }, a: COMPUTER },
    ],
    names: {
      ru: ['Цефалопод', 'Cephalopod', 'игра с кубиками Марка Стира'],
      uk: ['Цефалопод', 'Cephalopod', 'гра з кубиками Марка Стіра'],
      en: ['Cephalopod', 'Cephalopod dice game', 'Mark Steere Cephalopod'],
    },
  },

  mill: {
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
      { q: { en: 'Can I play the computer?', ru: 'Можно ли играть с компьютером?', uk: 'Чи можна грати з комп’ютером?' }, a: COMPUTER },
    ],
    names: {
      ru: ['Мельница', 'Тройка', 'мельница настольная игра', 'игра в мельницу'],
      uk: ['Млин', 'Трійка', 'млин настільна гра', 'гра в млин'],
      en: ['Mill', 'Nine Men’s Morris', 'Troika mill game'],
    },
  },

  'white-rabbit': {
    origin: {
      en: ['Dmytro Polovynka’s game is new and little known, and unusual: most games for one are played with cards, while this one needs only twelve dice of four colours — no board, not even pen and paper.', 'The white die is the rabbit the game is named after: it can swap with black and red dice alike, which makes it the most useful die — and the win needs it to stay in your hand.'],
      ru: ['Игра Дмитрия Половинки новая и мало известная — и необычная: игры для одного обычно карточные, а здесь нужны только двенадцать кубиков четырёх цветов, ни поля, ни даже бумаги с ручкой.', 'Белый кубик — тот самый кролик, в честь которого названа игра: он меняется и с чёрными, и с красными кубиками, поэтому он самый полезный — а для победы он должен остаться у вас в руке.'],
      uk: ['Гра Дмитра Половинки нова й маловідома — і незвичайна: ігри для одного зазвичай карткові, а тут потрібні лише дванадцять кубиків чотирьох кольорів, ні поля, ні навіть паперу з ручкою.', 'Білий кубик — той самий кролик, на честь якого названо гру: він міняється і з чорними, і з червоними кубиками, тож він найкорисніший — а для перемоги він має лишитися у вас у руці.'],
    },
    faq: [
      {
        q: { en: 'What if no swap is possible?', ru: 'А если обменять нечего?', uk: 'А якщо обміняти нічого?' },
        a: {
          en: 'End the turn: the green counter goes down by one and your hand is rolled again. Ending a turn with the counter at 1 loses the game.',
          ru: 'Закончите ход: зелёный счётчик уменьшится на один, а рука будет брошена заново. Закончить ход при счётчике 1 — значит проиграть.',
          uk: 'Закінчіть хід: зелений лічильник зменшиться на один, а руку буде кинуто знову. Закінчити хід за лічильника 1 — означає програти.',
        },
      },
      {
        q: { en: 'Can I swap the same two dice back?', ru: 'Можно ли сразу поменять те же два кубика обратно?', uk: 'Чи можна одразу поміняти ті самі два кубики назад?' },
        a: {
          en: 'Not straight away, unless a reroll gave the die its old value back. Any other swap in between lifts the ban.',
          ru: 'Не сразу — разве что переброс вернул кубику прежнее значение. Любой другой обмен между ними снимает запрет.',
          uk: 'Не одразу — хіба що перекидання повернуло кубику колишнє значення. Будь-який інший обмін між ними знімає заборону.',
        },
      },
      {
        q: { en: 'Can I play it with the computer?', ru: 'Можно ли играть с компьютером?', uk: 'Чи можна грати з комп’ютером?' },
        a: {
          en: 'It is a puzzle for one: you play against the dice. Every day there is a daily deal, the same for everyone, with a leaderboard.',
          ru: 'Это головоломка для одного: вы играете против кубиков. Каждый день есть расклад дня, одинаковый для всех, с таблицей лучших.',
          uk: 'Це головоломка для одного: ви граєте проти кубиків. Щодня є розклад дня, однаковий для всіх, із таблицею найкращих.',
        },
      },
    ],
    names: {
      ru: ['Белый кролик', 'игра с кубиками на одного', 'головоломка с кубиками'],
      uk: ['Білий кролик', 'гра з кубиками на одного', 'головоломка з кубиками'],
      en: ['White Rabbit', 'solo dice game', 'dice puzzle for one player'],
    },
  },
};
