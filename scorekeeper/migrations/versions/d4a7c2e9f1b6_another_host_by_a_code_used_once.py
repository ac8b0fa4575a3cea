"""another host by a code used once

Revision ID: d4a7c2e9f1b6
Revises: b8e2f4a6c1d3
Create Date: 2026-11-29 17:10:00

A host shares its role with another device through a link whose code works once, for a short
while; the table keeps the code's hash and the host's key masked by the code.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4a7c2e9f1b6'
down_revision = 'b8e2f4a6c1d3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'host_grant',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('code_hash', sa.String(length=64), nullable=False),
        sa.Column('key', sa.String(length=128), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('used_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('code_hash'),
    )
    op.create_index(op.f('ix_host_grant_game_id'), 'host_grant', ['game_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_host_grant_game_id'), table_name='host_grant')
    op.drop_table('host_grant')
