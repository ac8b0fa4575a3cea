"""the cannons' loads, seat requests told apart by a code, the next game of a table

Revision ID: 3e8a1c5b7d20
Revises: 2b7c9e5d4f1a
Create Date: 2026-11-24 01:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3e8a1c5b7d20'
down_revision = '2b7c9e5d4f1a'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('next_game', sa.String(length=32), nullable=True))
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('cannons', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        'seat_request',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('code', sa.String(length=4), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('turned_away', sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('seat_request', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_request_game_id'), ['game_id'], unique=False)
    # An open request of the old kind had no code to tell it apart: the phone asks again.
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('asking_hash')


def downgrade():
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('asking_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('seat_request', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_request_game_id'))
    op.drop_table('seat_request')
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('cannons')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('next_game')
