"""secret entries and their count on the table: bids and cannon loads leave Skull King's entries

Revision ID: a1c4e7f20b35
Revises: 3e8a1c5b7d20
Create Date: 2026-11-24 12:00:00

The table keeps every kind's secret entries (`secret_entry`) and the count that reveals them
(`game.count_play`, `count_name`, `reveal_at`). Skull King's bids and loads move there from
its `entry` rows; its hands keep their own phase (bidding, loading, playing, scored), the
counting part of it being the table's count now.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a1c4e7f20b35'
down_revision = '3e8a1c5b7d20'
branch_labels = None
depends_on = None

game = sa.table('game', sa.column('id', sa.Integer), sa.column('count_play', sa.Integer),
                sa.column('count_name', sa.String), sa.column('reveal_at', sa.DateTime))
hand = sa.table('hand', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer), sa.column('number', sa.Integer),
                sa.column('phase', sa.String), sa.column('reveal_at', sa.DateTime))
entry = sa.table('entry', sa.column('hand_id', sa.Integer), sa.column('position', sa.Integer),
                 sa.column('bid', sa.Integer), sa.column('shot', sa.String))
secret = sa.table('secret_entry', sa.column('game_id', sa.Integer), sa.column('play', sa.Integer),
                  sa.column('seat', sa.Integer), sa.column('name', sa.String), sa.column('value', sa.JSON))

# The phases a hand stored while its bids or loads were collected or counted, and what they are now.
COLLECTING = {'bidding': ('bid', 'bidding'), 'counting': ('bid', 'bidding'),
              'loading': ('shot', 'loading'), 'firing': ('shot', 'loading')}
COUNTING = {'counting', 'firing'}


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('count_play', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('count_name', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('reveal_at', sa.DateTime(), nullable=True))
    op.create_table('secret_entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('play', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=16), nullable=False),
    sa.Column('value', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'play', 'seat', 'name')
    )
    with op.batch_alter_table('secret_entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_secret_entry_game_id'), ['game_id'], unique=False)

    connection = op.get_bind()
    found = connection.execute(
        sa.select(hand.c.game_id, hand.c.number, entry.c.position, entry.c.bid, entry.c.shot)
        .select_from(entry.join(hand, hand.c.id == entry.c.hand_id))).all()
    secrets = [{'game_id': r.game_id, 'play': r.number, 'seat': r.position, 'name': name, 'value': value}
               for r in found for name, value in (('bid', r.bid), ('shot', r.shot)) if value is not None]
    if secrets:
        connection.execute(sa.insert(secret), secrets)
    counted = connection.execute(sa.select(hand.c.id, hand.c.game_id, hand.c.number, hand.c.phase, hand.c.reveal_at)
                                 .where(hand.c.phase.in_(list(COLLECTING)))).all()
    for row in counted:
        name, stored = COLLECTING[row.phase]
        connection.execute(sa.update(game).where(game.c.id == row.game_id).values(
            count_play=row.number, count_name=name, reveal_at=row.reveal_at if row.phase in COUNTING else None))
        connection.execute(sa.update(hand).where(hand.c.id == row.id).values(phase=stored))

    for table, column in (('entry', 'bid'), ('entry', 'shot'), ('hand', 'reveal_at')):
        drop_column(table, column)


def drop_column(table, column):
    """Drop a column in place: SQLite's batch mode would copy the table and drop the old one, and dropping `hand`
    (or `game`) would delete every row of the tables that refer to it by their cascade."""
    if op.get_bind().dialect.name == 'sqlite':
        op.execute(f'ALTER TABLE {table} DROP COLUMN {column}')
    else:
        op.drop_column(table, column)


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reveal_at', sa.DateTime(), nullable=True))
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bid', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('shot', sa.String(length=12), nullable=True))

    connection = op.get_bind()
    found = connection.execute(sa.select(hand.c.id, hand.c.game_id, hand.c.number)).all()
    hands = {(r.game_id, r.number): r.id for r in found}
    for r in connection.execute(sa.select(secret.c.game_id, secret.c.play, secret.c.seat, secret.c.name,
                                          secret.c.value)).all():
        hand_id = hands.get((r.game_id, r.play))
        if hand_id is not None and r.name in ('bid', 'shot'):
            connection.execute(sa.update(entry).where(entry.c.hand_id == hand_id, entry.c.position == r.seat)
                               .values(**{r.name: r.value}))
    for r in connection.execute(sa.select(game.c.id, game.c.count_play, game.c.count_name, game.c.reveal_at)
                                .where(game.c.reveal_at.is_not(None))).all():
        phase = 'counting' if r.count_name == 'bid' else 'firing'
        connection.execute(sa.update(hand).where(hand.c.game_id == r.id, hand.c.number == r.count_play)
                           .values(phase=phase, reveal_at=r.reveal_at))

    with op.batch_alter_table('secret_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_secret_entry_game_id'))
    op.drop_table('secret_entry')
    for column in ('reveal_at', 'count_name', 'count_play'):
        drop_column('game', column)
