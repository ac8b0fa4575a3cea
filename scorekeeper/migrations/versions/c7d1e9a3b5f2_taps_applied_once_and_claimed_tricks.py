"""taps applied once, and the tricks claimed in a hand

Revision ID: c7d1e9a3b5f2
Revises: a1c4e7f20b35
Create Date: 2026-11-24 14:30:00

Every write a page sends carries a tap id; the table keeps the taps it applied (by their hash)
for a day, so a repeat gets the first answer and changes nothing. Skull King's hands keep the
cards of the tricks claimed in them, so the same cards cannot be claimed twice.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c7d1e9a3b5f2'
down_revision = 'a1c4e7f20b35'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'tap',
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('public_id', sa.String(length=32), nullable=False),
        sa.Column('secret', sa.String(length=128), nullable=True),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('key'),
    )
    op.create_index(op.f('ix_tap_game_id'), 'tap', ['game_id'], unique=False)
    op.create_index(op.f('ix_tap_at'), 'tap', ['at'], unique=False)
    # Added in place: on SQLite a copy of `hand` would empty `entry` by its cascade.
    op.add_column('hand', sa.Column('claimed', sa.JSON(), nullable=True))


def downgrade():
    # In place on SQLite too (see above).
    if op.get_bind().dialect.name == 'sqlite':
        op.execute('ALTER TABLE hand DROP COLUMN claimed')
    else:
        op.drop_column('hand', 'claimed')
    op.drop_index(op.f('ix_tap_at'), table_name='tap')
    op.drop_index(op.f('ix_tap_game_id'), table_name='tap')
    op.drop_table('tap')
